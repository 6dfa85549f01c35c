import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, arch, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startInfra } from '@gl/infra';
import { startStack } from '@gl/launcher';
import { BARE_SERVER_FLAG, runBareServer, startBareServer } from './bare-server';
import { measure, stopLoad, type LoadOptions } from './load';
import { formatRatio, formatTable, ratio, type TargetResult } from './report';
import { createGroup, signedContextFor } from './setup';
import { runRegistryBench } from './registry.bench';
import { runEventsBench } from './events.bench';
import { runAlertsBench } from './alerts.bench';
import { runScaleBench } from './scale.bench';

/**
 * `npm run bench`: the same small GET measured, in one run, on (a) a bare Express 5 server, (b) the boards
 * service directly with a signed internal context, (c) through the gateway with the root token.
 * Flags: --duration N (seconds per target, default 5), --connections N (default 16), --json.
 */
const USAGE =
  'usage: npm run bench -- [--duration N] [--connections N] [--json] [--scenario registry [--tags N]] [--scenario events [--events N]] [--scenario alerts] [--scenario scale [--scale F]]';
const WARMUP_SECONDS = 1;

interface Args {
  duration: number;
  connections: number;
  json: boolean;
  scenario: 'gateway' | 'registry' | 'events' | 'alerts' | 'scale';
  tags: number;
  events: number;
  scale: number;
}

const SCENARIOS = ['gateway', 'registry', 'events', 'alerts', 'scale'] as const;

function scenarioOf(raw: string): Args['scenario'] {
  const found = SCENARIOS.find((s) => s === raw);
  if (!found) throw new Error(`unknown --scenario ${raw}\n${USAGE}`);
  return found;
}

function boundedFraction(raw: string | undefined, name: string): number {
  if (raw === undefined) return 1;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) {
    throw new Error(`--${name} must be a number above 0 and at most 1\n${USAGE}`);
  }
  return value;
}

function boundedInt(
  raw: string | undefined,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`--${name} must be an integer from ${min} to ${max}\n${USAGE}`);
  }
  return value;
}

function readArgs(argv: string[]): Args | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      json: { type: 'boolean', default: false },
      scenario: { type: 'string', default: 'gateway' },
      tags: { type: 'string' },
      events: { type: 'string' },
      scale: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  return {
    duration: boundedInt(values.duration, 'duration', 5, 1, 120),
    connections: boundedInt(values.connections, 'connections', 16, 1, 256),
    json: values.json,
    scenario: scenarioOf(values.scenario),
    scale: boundedFraction(values.scale, 'scale'),
    tags: boundedInt(values.tags, 'tags', 100_000, 1, 1_000_000),
    events: boundedInt(values.events, 'events', 5_000, 1, 1_000_000),
  };
}

const log = (line: string): void => {
  process.stdout.write(`[bench] ${line}\n`);
};

/** Everything started, stopped in reverse order exactly once (normal end, error or signal). */
class Teardown {
  private readonly steps: { name: string; stop: () => Promise<void> }[] = [];
  private done: Promise<void> | undefined;

  add(name: string, stop: () => Promise<void>): void {
    this.steps.push({ name, stop });
  }

  run(): Promise<void> {
    this.done ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.stop();
        } catch (err) {
          log(`stopping ${step.name} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
    })();
    return this.done;
  }
}

async function probe(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(10_000) });
  const body = (await response.text()).replace(/\s+/g, ' ');
  return `${response.status} ${body.length > 100 ? `${body.slice(0, 100)}…` : body}`;
}

function machineFacts(args: Args): Record<string, string | number> {
  const cores = cpus();
  return {
    cores: cores.length,
    cpu: cores[0]?.model.trim() ?? 'unknown',
    node: process.version,
    platform: `${platform()} ${arch()}`,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadavg1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    connections: args.connections,
    pipelining: 1,
    warmupSeconds: WARMUP_SECONDS,
    durationSeconds: args.duration,
  };
}

async function bench(args: Args, teardown: Teardown): Promise<void> {
  const rootDir = resolve(__dirname, '..', '..');
  const dataDir = join(rootDir, '.data', 'bench');
  const databasePrefix = 'bench_';

  const infra = await startInfra({ rootDir, dataDir, fresh: true, log });
  teardown.add('infrastructure', () => infra.stop());
  log(`infrastructure (${infra.source}): ${infra.mongoUrl}, ${infra.natsUrl}`);

  const contextSecret = randomBytes(32).toString('hex');
  const stack = await startStack({
    rootDir,
    dataDir,
    mongoUrl: infra.mongoUrl,
    natsUrl: infra.natsUrl,
    gatewayPort: 0,
    databasePrefix,
    contextSecret,
    extraEnv: { LOG_LEVEL: 'warn' },
    log,
  });
  teardown.add('stack', () => stack.stop());

  if (args.scenario === 'events') {
    const result = await runEventsBench({
      gatewayUrl: stack.gatewayUrl,
      rootToken: stack.rootToken,
      mongoUrl: infra.mongoUrl,
      natsUrl: infra.natsUrl,
      database: `${databasePrefix}events`,
      events: args.events,
      log,
    });
    process.stdout.write(`${JSON.stringify({ machine: machineFacts(args), events: result }, null, 2)}\n`);
    return;
  }

  if (args.scenario === 'alerts') {
    const result = await runAlertsBench({
      gatewayUrl: stack.gatewayUrl,
      rootToken: stack.rootToken,
      durationSeconds: args.duration,
      connections: args.connections,
      log,
    });
    process.stdout.write(`${JSON.stringify({ machine: machineFacts(args), alerts: result }, null, 2)}\n`);
    return;
  }

  if (args.scenario === 'scale') {
    const result = await runScaleBench({
      gatewayUrl: stack.gatewayUrl,
      rootToken: stack.rootToken,
      mongoUrl: infra.mongoUrl,
      databasePrefix,
      scale: args.scale,
      connections: args.connections,
      log,
    });
    const report = { at: new Date().toISOString(), machine: machineFacts(args), scale: result };
    const file = join(rootDir, 'bench', 'results', 'scale-latest.json');
    mkdirSync(join(rootDir, 'bench', 'results'), { recursive: true });
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${file}`);
    return;
  }

  if (args.scenario === 'registry') {
    const result = await runRegistryBench({
      gatewayUrl: stack.gatewayUrl,
      rootToken: stack.rootToken,
      mongoUrl: infra.mongoUrl,
      database: `${databasePrefix}registry`,
      tags: args.tags,
      log,
    });
    process.stdout.write(`${JSON.stringify({ machine: machineFacts(args), registry: result }, null, 2)}\n`);
    return;
  }

  const bare = await startBareServer(__filename);
  teardown.add('bare Express server', async () => {
    if (bare.child.exitCode !== null || bare.child.signalCode !== null) return;
    const exited = new Promise<void>((r) => bare.child.once('exit', () => r()));
    bare.child.kill('SIGTERM');
    await exited;
  });

  const group = await createGroup(stack.gatewayUrl, stack.rootToken);
  log(`group ${group.path} (id ${group.id}) created with POST /api/v4/groups`);

  // The stack's default external URL; the gateway puts it in every context it signs.
  const externalUrl = `http://localhost:${new URL(stack.gatewayUrl).port}`;
  const path = `/api/v4/groups/${group.id}/boards`;
  const load: LoadOptions = {
    connections: args.connections,
    durationSeconds: args.duration,
    warmupSeconds: WARMUP_SECONDS,
  };
  const targets: {
    key: TargetResult['key'];
    label: string;
    url: string;
    headers: () => Record<string, string>;
  }[] = [
    { key: 'a', label: 'bare Express 5', url: `${bare.url}${path}`, headers: () => ({}) },
    {
      key: 'b',
      label: 'boards service direct',
      url: `${stack.serviceUrls.boards}${path}`,
      // Signed just before its run and valid through it, like the gateway's per-request header.
      headers: () => ({
        'x-gl-context': signedContextFor(
          contextSecret,
          externalUrl,
          group,
          (WARMUP_SECONDS + args.duration + 60) * 1_000,
        ),
        'x-request-id': 'bench',
      }),
    },
    {
      key: 'c',
      label: 'gateway → boards',
      url: `${stack.gatewayUrl}${path}`,
      headers: () => ({ 'PRIVATE-TOKEN': stack.rootToken }),
    },
  ];

  const results: TargetResult[] = [];
  for (const target of targets) {
    const headers = target.headers();
    const probed = await probe(target.url, headers);
    log(`(${target.key}) ${target.label}: GET ${target.url} → ${probed}`);
    const measurement = await measure(target.url, headers, load);
    log(`(${target.key}) ${Math.round(measurement.requestsPerSecond)} req/s over ${measurement.seconds} s`);
    results.push({ key: target.key, label: target.label, url: target.url, probe: probed, measurement });
    await new Promise((r) => setTimeout(r, 500));
  }

  const [a, b, c] = results.map((r) => r.measurement) as [
    TargetResult['measurement'],
    TargetResult['measurement'],
    TargetResult['measurement'],
  ];
  const ratios = [ratio('c/b', 'gateway cost', c, b), ratio('b/a', 'service vs bare Express', b, a)];
  const machine = machineFacts(args);

  process.stdout.write(`\n${formatTable(results)}\n\n`);
  for (const r of ratios) process.stdout.write(`${formatRatio(r)}\n`);
  for (const r of results) process.stdout.write(`(${r.key}) probe: ${r.probe}\n`);
  process.stdout.write(
    `\nmachine: ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, ${machine.platform}, ` +
      `${machine.memoryGiB} GiB, load ${machine.loadavg1m} before the runs\n` +
      `load: autocannon in the bench process, ${args.connections} connections, pipelining 1, ` +
      `${WARMUP_SECONDS} s warm-up + ${args.duration} s per target, 127.0.0.1 only; (a) in its own process, ` +
      `(b)/(c) the full stack (gateway + six services + FerretDB + NATS) on the same ${machine.cores} cores\n`,
  );

  if (args.json) {
    const file = join(rootDir, 'bench', 'results', 'latest.json');
    mkdirSync(join(rootDir, 'bench', 'results'), { recursive: true });
    const report = { at: new Date().toISOString(), machine, group, results, ratios };
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    log(`wrote ${file}`);
  }
}

async function main(): Promise<void> {
  if (process.argv.includes(BARE_SERVER_FLAG)) {
    runBareServer();
    return;
  }
  const args = readArgs(process.argv.slice(2));
  if (!args) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const started = Date.now();
  const teardown = new Teardown();
  const onSignal = (signal: NodeJS.Signals): void => {
    log(`${signal}: stopping`);
    stopLoad();
    void teardown.run().then(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await bench(args, teardown);
  } finally {
    await teardown.run();
    log(`total wall time ${((Date.now() - started) / 1_000).toFixed(1)} s`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`[bench] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
