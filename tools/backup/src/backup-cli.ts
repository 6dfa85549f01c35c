import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { connect } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { EVENT_STREAM } from '@gl/contracts';
import { connectMongo, natsServers } from '@gl/service-kit';
import {
  databaseNames,
  dumpDatabases,
  nonEmptyDatabases,
  readBeforeTheFence,
  restoreDatabases,
} from './databases';
import { locateFence, raiseFence, waitForQuiet, type RaisedFence } from './fence';
import { FORMAT, readManifest, writeManifest, type CutEntry, type Manifest } from './manifest';
import { createProgress } from './progress';
import { locateServers, type Servers } from './servers';
import { consumerPositions, dumpStream, restoreStream } from './stream';

/**
 * Backup and restore of an installation (README "Backup and restore"):
 *
 *   npm run backup -- DIR [--prefix gl_] [--max-hold 60]   while the system runs
 *   npm run restore -- DIR [--replace]       with the services stopped
 *
 * Servers: MONGO_URL + NATS_URL, else the local default of DATA_DIR (.data/dev). Gateways to fence:
 * GATEWAY_URL + GL_ADMIN_TOKEN, else the running local default's (fence.ts).
 */
const USAGE = [
  'usage: backup backup DIR [--prefix gl_] [--max-hold SECONDS]',
  '       backup restore DIR [--replace]',
  'env: MONGO_URL + NATS_URL (else the local infrastructure of DATA_DIR, default .data/dev); NATS_STREAM_REPLICAS;',
  '     GATEWAY_URL (comma-separated) + GL_ADMIN_TOKEN: the gateways whose writes the backup holds',
].join('\n');

const rootDir = resolve(__dirname, '..', '..');
const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};
const progress = createProgress(out);

interface Args {
  action: 'backup' | 'restore';
  dir: string;
  prefix: string;
  replace: boolean;
  /** Longest the gateways hold writes; past it they go on and the backup is not a moment. */
  maxHoldMs: number;
}

function parse(argv: string[]): Args | null {
  const [action, dir, ...rest] = argv;
  if ((action !== 'backup' && action !== 'restore') || !dir || dir.startsWith('--')) return null;
  let prefix = 'gl_';
  let replace = false;
  let maxHoldMs = 60_000;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--prefix' && action === 'backup' && rest[i + 1]) prefix = rest[++i]!;
    else if (rest[i] === '--max-hold' && action === 'backup' && /^\d+$/.test(rest[i + 1] ?? '')) {
      maxHoldMs = Number(rest[++i]) * 1_000;
      if (maxHoldMs < 1_000 || maxHoldMs > 300_000) return null;
    } else if (rest[i] === '--replace' && action === 'restore') replace = true;
    else return null;
  }
  return { action, dir: resolve(dir), prefix, replace, maxHoldMs };
}

async function openServers(servers: Servers) {
  const mongo = await connectMongo(servers.mongoUrl, 'admin');
  const nats = await connect({ servers: natsServers(servers.natsUrl), name: 'backup' });
  const jsm = await jetstreamManager(nats);
  return {
    client: mongo.getClient(),
    jsm,
    js: jetstream(nats),
    async close() {
      await nats.drain().catch(() => undefined);
      await mongo.close().catch(() => undefined);
    },
  };
}

async function streamExists(jsm: JetStreamManager): Promise<boolean> {
  return jsm.streams.info(EVENT_STREAM).then(
    () => true,
    () => false,
  );
}

async function backup(args: Args, servers: Servers): Promise<void> {
  if (existsSync(args.dir) && readdirSync(args.dir).length > 0)
    throw new Error(`${args.dir} is not empty: back up into a new directory`);
  mkdirSync(args.dir, { recursive: true });
  const started = new Date();
  const s = await openServers(servers);
  try {
    const info = (await s.client.db('admin').command({ buildInfo: 1 })) as {
      version?: string;
      ferretdbVersion?: string;
    };
    const mongoServer = info.ferretdbVersion ? `ferretdb ${info.ferretdbVersion}` : `mongodb ${info.version}`;
    const hasStream = await streamExists(s.jsm);
    // Where the consumers stood before any database is read (consumerPositions says why); the stream's end
    // is fixed once every collection but the counters has been read (dumpStream, COUNTERS).
    const consumers = hasStream ? await consumerPositions(s.jsm, EVENT_STREAM) : [];
    out(`consumer positions: ${consumers.map((c) => `${c.durable}@${c.ackFloor}`).join(', ') || 'none'}`);
    const names = await databaseNames(s.client, args.prefix);
    if (names.length === 0) throw new Error(`no database named ${args.prefix}* on ${servers.mongoUrl}`);
    out(`databases: ${names.join(', ')}`);
    const target = locateFence(process.env, servers.runningLocalDir);
    if (!target)
      out('no gateway to fence (GATEWAY_URL unset): writes made while this runs may come back in part');
    let fence: RaisedFence | null = null;
    let cut: CutEntry | undefined;
    let quiet = false;
    let lastSeq = 0;
    const dumped = await dumpDatabases(s.client, names, args.dir, progress, {
      fenced: (name) => !readBeforeTheFence(name, args.prefix),
      // The cut: from here to the stream's end no client write lands (fence.ts); the activity log was
      // read before, from events of writes that all came earlier.
      beforeFenced: async () => {
        fence = target ? await raiseFence(target, args.maxHoldMs, out) : null;
        if (fence && hasStream) {
          quiet = await waitForQuiet(s.jsm, EVENT_STREAM, 5_000);
          if (!quiet) out('consumers still busy after 5 s: copying anyway (their writes may be cut)');
        }
      },
      beforeCounters: async () => {
        if (hasStream) lastSeq = (await s.jsm.streams.info(EVENT_STREAM)).state.last_seq;
        if (!fence) return;
        const lifted = await fence.release();
        cut = {
          moment: lifted.intact,
          gateways: target!.urls.length,
          heldMs: lifted.heldMs,
          heldRequests: lifted.heldRequests,
          quiet,
          ...(lifted.intact
            ? {}
            : {
                note: `the fence lifted after --max-hold ${args.maxHoldMs / 1000} s, before the copy's cut`,
              }),
        };
        out(
          `write fence lifted: writes held ${lifted.heldMs} ms, ${lifted.heldRequests} waited` +
            (lifted.intact ? '' : ` — WARNING: ${cut.note}; writes made meanwhile may come back in part`),
        );
      },
    });
    let bytes = dumped.bytes;
    let stream: Manifest['stream'] = null;
    if (hasStream) {
      mkdirSync(resolve(args.dir, 'nats'), { recursive: true });
      const result = await dumpStream(s.js, s.jsm, EVENT_STREAM, lastSeq, consumers, args.dir, progress);
      stream = result.entry;
      bytes += result.bytes;
    }
    const manifest: Manifest = {
      format: FORMAT,
      startedAt: started.toISOString(),
      finishedAt: new Date().toISOString(),
      mongoServer,
      databases: dumped.databases,
      stream,
      ...(cut ? { cut } : {}),
      bytes,
    };
    writeManifest(args.dir, manifest);
    const documents = dumped.databases.flatMap((d) => d.collections).reduce((n, c) => n + c.documents, 0);
    out(
      `backup done: ${names.length} databases, ${documents.toLocaleString('en-US')} documents, ` +
        `${(stream?.messages ?? 0).toLocaleString('en-US')} stream messages, ${bytes.toLocaleString('en-US')} bytes ` +
        `in ${Date.now() - started.getTime()} ms → ${args.dir}`,
    );
  } finally {
    await s.close();
  }
}

async function restore(args: Args, servers: Servers): Promise<void> {
  const manifest = readManifest(args.dir);
  const started = Date.now();
  const s = await openServers(servers);
  try {
    const names = manifest.databases.map((d) => d.name);
    const occupied = await nonEmptyDatabases(s.client, names);
    const streamMessages = (await streamExists(s.jsm))
      ? (await s.jsm.streams.info(EVENT_STREAM)).state.messages
      : 0;
    if (!args.replace && (occupied.length > 0 || streamMessages > 0))
      throw new Error(
        `the target holds data (${[...occupied, ...(streamMessages > 0 ? [`${streamMessages} stream messages`] : [])].join(', ')}); ` +
          'stop the services and pass --replace to replace it with the backup',
      );
    out(`restoring the backup of ${manifest.startedAt} (${manifest.mongoServer}) into ${servers.source}`);
    const documents = await restoreDatabases(s.client, manifest.databases, args.dir, progress);
    let messages = 0;
    if (manifest.stream) {
      const replicas = process.env.NATS_STREAM_REPLICAS
        ? Number(process.env.NATS_STREAM_REPLICAS)
        : undefined;
      messages = (await restoreStream(s.js, s.jsm, manifest.stream, args.dir, progress, replicas)).messages;
    }
    out(
      `restore done: ${names.length} databases, ${documents.toLocaleString('en-US')} documents, ` +
        `${messages.toLocaleString('en-US')} stream messages in ${Date.now() - started} ms; start the services ` +
        '(each applies its migrations before it serves)',
    );
  } finally {
    await s.close();
  }
}

async function main(): Promise<number> {
  const args = parse(process.argv.slice(2));
  if (!args) {
    process.stderr.write(`${USAGE}\n`);
    return 64; // EX_USAGE
  }
  const servers = await locateServers(rootDir, process.env, out);
  out(`servers: ${servers.source}`);
  try {
    if (args.action === 'backup') await backup(args, servers);
    else await restore(args, servers);
    return 0;
  } finally {
    await servers.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
