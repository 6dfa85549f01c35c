import mongoose from 'mongoose';
import { send } from './arrivals';
import { picker, seededRandom, type RequestKind } from './mix';
import type { MixedFixture } from './fixture';

/**
 * Database commands per request kind. The services' drivers are in other processes, so a command monitor
 * here would see none of their commands; the server's own counters do (`serverStatus` `metrics.commands`,
 * which FerretDB keeps too). Counters are per server, not per request, so each kind is measured alone:
 * SAMPLES requests one after another, less what the server counted over the same time while idle (outbox
 * sweeps, projection checks). Writes include what their events make the consumers do within SETTLE_MS.
 * It doubles as the check that every kind answers as expected before any load is sent. Without counts
 * from the server (another database) the requests are still sent and checked.
 */
const SAMPLES = 20;
const IDLE_MS = 3_000;
const SETTLE_MS = 1_000;

type CommandCounts = Record<string, { total?: number }>;

async function commandTotal(connection: mongoose.Connection): Promise<number | null> {
  const status = (await connection.db!.admin().command({ serverStatus: 1 })) as {
    metrics?: { commands?: CommandCounts };
  };
  const commands = status.metrics?.commands;
  if (!commands) return null;
  return Object.values(commands).reduce((sum, c) => sum + Number(c.total ?? 0), 0);
}

export interface DbOps {
  /** Database commands per request of each kind, rounded to tenths; null when the server keeps no counts. */
  perRequest: Record<string, number> | null;
  /** Commands per second the server counted while no request was sent. */
  idlePerSecond: number | null;
}

export async function measureDbOps(options: {
  mongoUrl: string;
  gatewayUrl: string;
  fixture: MixedFixture;
  kinds: RequestKind[];
  log: (line: string) => void;
}): Promise<DbOps> {
  const connection = await mongoose.createConnection(options.mongoUrl).asPromise();
  try {
    const first = await commandTotal(connection);
    if (first === null) {
      options.log('mixed: the database server reports no command counts; database operations not measured');
    }
    const idleStart = performance.now();
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idleRate =
      first === null ? 0 : ((await commandTotal(connection))! - first) / (performance.now() - idleStart);
    const origin = new URL(options.gatewayUrl);
    const pick = picker(options.fixture, seededRandom(7));
    const perRequest: Record<string, number> = {};
    for (const [i, kind] of options.kinds.entries()) {
      const before = first === null ? 0 : (await commandTotal(connection))!;
      const started = performance.now();
      for (let n = 0; n < SAMPLES; n++) {
        const planned = kind.plan(pick(900_000_000 + i * 1_000 + n));
        const answer = await send(origin, planned, 10_000);
        // Logged, not thrown: the load still shows how often it happens and at what rate.
        if (answer.status !== planned.expect) {
          options.log(
            `mixed: check: ${kind.name} answered ${answer.status} (${planned.method} ${planned.path})`,
          );
        }
      }
      if (kind.write) await new Promise((r) => setTimeout(r, SETTLE_MS));
      if (first === null) continue;
      const counted = (await commandTotal(connection))! - before;
      const ops = Math.max(0, counted - idleRate * (performance.now() - started)) / SAMPLES;
      perRequest[kind.name] = Math.round(ops * 10) / 10;
    }
    if (first === null) return { perRequest: null, idlePerSecond: null };
    options.log(`mixed: database commands per request: ${JSON.stringify(perRequest)}`);
    return { perRequest, idlePerSecond: Math.round(idleRate * 1_000 * 10) / 10 };
  } finally {
    await connection.close();
  }
}
