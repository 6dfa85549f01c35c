import { randomUUID } from 'node:crypto';
import { request, type ClientRequest } from 'node:http';
import { DOMAIN_EVENT_TYPES, rootEvent, type EventEnvelope } from '@gl/contracts';
import { connectBus, createLogger } from '@gl/service-kit';
import { formatCpu, type CpuSampler } from './cpu';
import type { Scenario } from './scenario';
import { percentile, roundTenth } from './stats';
import { rootCall } from './gateway-api';

/**
 * `npm run bench -- --scenario stream`: live activity streams under load. 100 streams of one private project
 * are open through the gateway (20 users, Reporters, 5 streams each: the per-user limit), then issue.opened
 * events are published on the bus at 1,000 events/s for 10 s; every stream must receive every event once,
 * in order. Measured: publish → delivered on each stream (p50/p99 over every delivery), and the rate the
 * events were delivered at.
 */
const STREAMS = 100;
const USERS = 20;
const RATE = 1_000;
const SECONDS = 10;
const TICK_MS = 10;

export interface StreamBenchOptions {
  gatewayUrl: string;
  rootToken: string;
  natsUrl: string;
  log: (line: string) => void;
  streams?: number;
  rate?: number;
  seconds?: number;
  /** When given: each process's CPU per published event, from the first publish to the last delivery. */
  cpu?: CpuSampler;
}

export interface StreamBenchResult {
  streams: number;
  published: number;
  publishSeconds: number;
  deliveries: number;
  expectedDeliveries: number;
  duplicates: number;
  outOfOrder: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** CPU ms per published event by process (delivery to every stream included). */
  cpuMsPerEvent?: Record<string, number>;
}

/** One open stream: when each bench event (by its sequence number) arrived, and the ids in arrival order. */
interface Follower {
  req: ClientRequest;
  arrivals: Map<number, number>;
  ids: number[];
  duplicates: number;
}

function follow(url: string, token: string): Promise<Follower> {
  return new Promise((resolve, reject) => {
    const follower: Follower = { req: undefined as never, arrivals: new Map(), ids: [], duplicates: 0 };
    follower.req = request(
      url,
      { headers: { 'PRIVATE-TOKEN': token, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          reject(new Error(`stream answered ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        let buffer = '';
        res.on('data', (chunk: string) => {
          const now = performance.now();
          buffer += chunk;
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const id = /^id: (\d+)$/m.exec(block);
            const seq = /"target_title":"stream-bench (\d+)"/.exec(block);
            if (!id || !seq) continue;
            const n = Number(seq[1]);
            if (follower.arrivals.has(n)) follower.duplicates += 1;
            else follower.arrivals.set(n, now);
            follower.ids.push(Number(id[1]));
          }
        });
        resolve(follower);
      },
    );
    follower.req.on('error', reject);
    follower.req.end();
  });
}

function issueOpened(projectId: number, seq: number): EventEnvelope {
  return rootEvent({
    id: randomUUID(),
    type: DOMAIN_EVENT_TYPES.discussions.issueOpened,
    producer: 'bench',
    projectId,
    data: { targetId: 9_000_000 + seq, targetIid: seq, targetTitle: `stream-bench ${seq}` },
  });
}

export async function runStreamBench(options: StreamBenchOptions): Promise<StreamBenchResult> {
  const { log } = options;
  const streams = options.streams ?? STREAMS;
  const rate = options.rate ?? RATE;
  const total = rate * (options.seconds ?? SECONDS);
  const suffix = Date.now().toString(36);
  const project = await rootCall<{ id: number }>(options, 'POST', '/projects', { path: `stream-${suffix}` });
  const tokens: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const username = `stream-${suffix}-${i}`;
    const user = await rootCall<{ id: number }>(options, 'POST', '/users', {
      username,
      name: username,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await rootCall<{ token: string }>(
      options,
      'POST',
      `/users/${user.id}/personal_access_tokens`,
      {
        name: 'stream',
        scopes: ['read_api'],
      },
    );
    await rootCall(options, 'POST', `/projects/${project.id}/members`, {
      user_id: user.id,
      access_level: 20,
    });
    tokens.push(token.token);
  }
  const url = `${options.gatewayUrl}/api/v4/projects/${project.id}/events/stream?target_type=issue`;
  const followers = await Promise.all(
    Array.from({ length: streams }, (_, i) => follow(url, tokens[i % tokens.length]!)),
  );
  log(`stream: ${followers.length} streams open; publishing ${total} events at ${rate}/s`);

  const bus = await connectBus(options.natsUrl, 'bench-stream', createLogger('bench-stream', 'silent'));
  const cpuFrom = options.cpu?.snapshot();
  const published = new Array<number>(total);
  const pending: Promise<void>[] = [];
  const started = performance.now();
  try {
    let seq = 0;
    while (seq < total) {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1_000) * rate) + 1);
      for (; seq < due; seq++) {
        published[seq] = performance.now();
        pending.push(bus.publish(issueOpened(project.id, seq)));
      }
      await new Promise((r) => setTimeout(r, TICK_MS));
    }
    await Promise.all(pending);
  } finally {
    await bus.close();
  }
  const publishSeconds = (performance.now() - started) / 1_000;

  const expected = total * streams;
  const delivered = () => followers.reduce((n, f) => n + f.arrivals.size, 0);
  const deadline = Date.now() + 60_000;
  while (delivered() < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const cpuMsPerEvent =
    options.cpu && cpuFrom ? options.cpu.perRequest(cpuFrom, options.cpu.snapshot(), total) : undefined;
  for (const f of followers) f.req.destroy();

  const latencies: number[] = [];
  let outOfOrder = 0;
  for (const f of followers) {
    for (const [seq, at] of f.arrivals) latencies.push(at - published[seq]!);
    for (let i = 1; i < f.ids.length; i++) if (f.ids[i]! <= f.ids[i - 1]!) outOfOrder += 1;
  }
  latencies.sort((a, b) => a - b);
  const result: StreamBenchResult = {
    streams,
    published: total,
    publishSeconds: roundTenth(publishSeconds),
    deliveries: delivered(),
    expectedDeliveries: expected,
    duplicates: followers.reduce((n, f) => n + f.duplicates, 0),
    outOfOrder,
    p50Ms: roundTenth(percentile(latencies, 50)),
    p99Ms: roundTenth(percentile(latencies, 99)),
    maxMs: roundTenth(latencies.at(-1) ?? 0),
    ...(cpuMsPerEvent ? { cpuMsPerEvent } : {}),
  };
  log(`stream: ${JSON.stringify({ ...result, cpuMsPerEvent: undefined })}`);
  if (cpuMsPerEvent) log(`stream: CPU ms per event: ${formatCpu(cpuMsPerEvent)}`);
  return result;
}

/** `BENCH_STREAM_STREAMS`, `BENCH_STREAM_RATE`, `BENCH_STREAM_SECONDS`: other sizes, to see where time goes. */
function sizesFromEnv(): Pick<StreamBenchOptions, 'streams' | 'rate' | 'seconds'> {
  const read = (name: string, fallback: number, max: number): number => {
    const value = Number(process.env[name] ?? fallback);
    if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`${name}: an integer 1–${max}`);
    return value;
  };
  return {
    streams: read('BENCH_STREAM_STREAMS', STREAMS, 500),
    rate: read('BENCH_STREAM_RATE', RATE, 10_000),
    seconds: read('BENCH_STREAM_SECONDS', SECONDS, 120),
  };
}

export const streamScenario: Scenario<StreamBenchResult> = {
  name: 'stream',
  inDefaultRun: false,
  async run(context) {
    const sizes = sizesFromEnv();
    const result = await runStreamBench({
      gatewayUrl: context.stack.gatewayUrl,
      rootToken: context.stack.rootToken,
      natsUrl: context.natsUrl,
      log: context.log,
      cpu: context.cpu,
      ...sizes,
    });
    const path = `activity stream, ${result.streams} streams, ${sizes.rate!.toLocaleString('en-US')} events/s`;
    return {
      result,
      rows: [
        {
          path,
          measure: 'p99 publish → delivered',
          value: result.p99Ms,
          unit: 'ms',
          goal: 'max',
          target: 100,
        },
        {
          path,
          measure: 'deliveries missing',
          value: result.expectedDeliveries - result.deliveries,
          unit: 'events',
          goal: 'max',
          target: 1,
        },
      ],
    };
  },
};
