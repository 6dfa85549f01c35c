import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, arch, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startInfra } from '@gl/infra';
import { startStack } from '@gl/launcher';
import { alertsScenario } from './alerts.bench';
import { cpuSampler, infrastructurePids } from './cpu';
import { BARE_SERVER_FLAG, runBareServer } from './bare-server';
import { eventsScenario } from './events.bench';
import { gatewayScenario } from './gateway.bench';
import { hooksScenario } from './hooks.bench';
import { stopLoad } from './load';
import { registryScenario } from './registry.bench';
import { scaleScenario } from './scale.bench';
import { columnsScenario } from './columns.bench';
import { pollersScenario } from './pollers.bench';
import { DEFAULT_RATES, DEFAULT_STEP_SECONDS, mixedScenario } from './mixed.bench';
import { streamScenario } from './stream.bench';
import { met, type Scenario, type ScenarioContext, type SummaryRow } from './scenario';
import { formatSummary, summaryMarkdown } from './summary';

/**
 * `npm run bench`: every scenario with targets, in one run on one stack, then one table of the figures next
 * to their targets (and what they were when the throughput issue was filed). `--scenario NAME` (repeatable)
 * runs only those. Results go to bench/results/ (`latest.json` + `latest.md` for a full run).
 */
const USAGE =
  'usage: npm run bench -- [--scenario NAME ...] [--duration N] [--connections N] [--json]\n' +
  '  scenarios: gateway, alerts, registry [--tags N], events [--events N] [--ingest K], scale [--scale F],\n' +
  '  columns [--scale F] (100,000 issues × F in one group, a board column read through the gateway),\n' +
  '  mixed [--scale F] [--rates 50,100,200] [--step-seconds N] (a GitLab-like mix at stepped arrival rates),\n' +
  '    [--per-kind R] (first each kind of the mix alone at R req/s: latency and CPU per request per process),\n' +
  '    [--kinds a,b] (only the kinds whose names contain one of these words, e.g. column,user events),\n' +
  '  pollers [--scale F] (20,000 issues × F: deep pages by offset and keyset, a GET and its 304)\n' +
  '  hooks [--scale F] (webhooks at 200 events/s over 50 hooks, 1,000,000 × F activity events stored;\n' +
  '    F 0.1 unless given, as 1,000,000 take about 5 minutes to store)\n' +
  '  (a plain run does gateway, alerts, registry and events at their full sizes; scale only when named)';
const WARMUP_SECONDS = 1;

interface Args {
  duration: number;
  connections: number;
  json: boolean;
  scenarios: string[];
  tags: number;
  events: number;
  ingest: number;
  scale: number;
  /** Whether --scale was given (the hooks scenario stores a tenth of its events unless it was). */
  scaleGiven: boolean;
  rates: number[];
  stepSeconds: number;
  perKindRate: number | null;
  kinds: string[];
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

/** `--rates 100,200,400`: arrival rates to step through, ascending, each 1 to 5,000 requests a second. */
function rateList(raw: string | undefined): number[] {
  if (raw === undefined) return DEFAULT_RATES;
  const rates = raw.split(',').map(Number);
  const valid = rates.every(
    (r, i) => Number.isInteger(r) && r >= 1 && r <= 5_000 && (i === 0 || r > rates[i - 1]!),
  );
  if (!valid || rates.length > 20) {
    throw new Error(`--rates must be up to 20 ascending integers from 1 to 5000, comma-separated\n${USAGE}`);
  }
  return rates;
}

function readArgs(argv: string[]): Args | null {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      connections: { type: 'string' },
      json: { type: 'boolean', default: false },
      scenario: { type: 'string', multiple: true },
      tags: { type: 'string' },
      events: { type: 'string' },
      ingest: { type: 'string' },
      scale: { type: 'string' },
      rates: { type: 'string' },
      'step-seconds': { type: 'string' },
      'per-kind': { type: 'string' },
      kinds: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return null;
  return {
    duration: boundedInt(values.duration, 'duration', 5, 1, 120),
    connections: boundedInt(values.connections, 'connections', 16, 1, 256),
    json: values.json,
    scenarios: values.scenario ?? [],
    scale: boundedFraction(values.scale, 'scale'),
    scaleGiven: values.scale !== undefined,
    tags: boundedInt(values.tags, 'tags', 100_000, 1, 1_000_000),
    events: boundedInt(values.events, 'events', 1_000_000, 1, 2_000_000),
    ingest: boundedInt(values.ingest, 'ingest', 20_000, 1, 200_000),
    rates: rateList(values.rates),
    stepSeconds: boundedInt(values['step-seconds'], 'step-seconds', DEFAULT_STEP_SECONDS, 5, 300),
    perKindRate:
      values['per-kind'] === undefined ? null : boundedInt(values['per-kind'], 'per-kind', 0, 1, 5_000),
    kinds: (values.kinds ?? '')
      .split(',')
      .map((word) => word.trim())
      .filter(Boolean),
  };
}

function scenariosOf(args: Args): Scenario[] {
  const all: Scenario[] = [
    gatewayScenario(__filename),
    alertsScenario,
    registryScenario(args.tags),
    eventsScenario({ events: args.events, ingest: args.ingest }),
    scaleScenario({ scale: args.scale }),
    columnsScenario({ scale: args.scale }),
    pollersScenario({ scale: args.scale }),
    mixedScenario({
      scale: args.scale,
      rates: args.rates,
      stepSeconds: args.stepSeconds,
      perKindRate: args.perKindRate,
      kinds: args.kinds,
    }),
    streamScenario,
    hooksScenario({ stored: Math.round(1_000_000 * (args.scaleGiven ? args.scale : 0.1)) }),
  ];
  if (args.scenarios.length === 0) return all.filter((s) => s.inDefaultRun);
  return args.scenarios.map((name) => {
    const found = all.find((s) => s.name === name);
    if (!found) throw new Error(`unknown --scenario ${name}\n${USAGE}`);
    return found;
  });
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

function describeMachine(machine: Record<string, string | number>, args: Args): string {
  return (
    `machine: ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, ${machine.platform}, ` +
    `${machine.memoryGiB} GiB, load ${machine.loadavg1m} before the runs; the full stack (gateway, seven ` +
    `services, cleanup worker, FerretDB, NATS) and the load generator on the same ${machine.cores} cores, ` +
    `127.0.0.1 only; ${args.connections} concurrent clients, ${WARMUP_SECONDS} s warm-up + ${args.duration} s ` +
    `per throughput target`
  );
}

async function bench(args: Args, teardown: Teardown): Promise<void> {
  const scenarios = scenariosOf(args);
  const machine = machineFacts(args);
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
    // GitLab's allow_local_requests_from_web_hooks_and_services, only when the hooks scenario's receivers
    // (on 127.0.0.1) are to be reached; the other scenarios keep GitLab's default.
    extraEnv: {
      LOG_LEVEL: 'warn',
      ...(scenarios.some((s) => s.name === 'hooks')
        ? { ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES: 'true' }
        : {}),
    },
    log,
  });
  teardown.add('stack', () => stack.stop());

  const cpu = cpuSampler({ ...infrastructurePids(dataDir), ...stack.pids });
  const context: ScenarioContext = {
    stack,
    mongoUrl: infra.mongoUrl,
    natsUrl: infra.natsUrl,
    databasePrefix,
    contextSecret,
    durationSeconds: args.duration,
    connections: args.connections,
    warmupSeconds: WARMUP_SECONDS,
    log,
    cpu,
    onTeardown: (name, stop) => teardown.add(name, stop),
  };
  const report: Record<string, unknown> = { at: new Date().toISOString(), machine };
  const rows: SummaryRow[] = [];
  const details: string[] = [];
  for (const [index, scenario] of scenarios.entries()) {
    const started = Date.now();
    log(`scenario ${index + 1}/${scenarios.length}: ${scenario.name}`);
    const outcome = await scenario.run(context);
    report[scenario.name] = outcome.result;
    rows.push(...outcome.rows);
    if (outcome.details) details.push(outcome.details);
    log(`scenario ${scenario.name} done in ${((Date.now() - started) / 1_000).toFixed(1)} s`);
  }
  report.summary = rows.map((row) => ({ ...row, met: met(row) }));

  const table = formatSummary(rows);
  process.stdout.write(`\n${table}\n\n${describeMachine(machine, args)}\n`);
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);

  const full = args.scenarios.length === 0;
  const stem = full ? 'latest' : `${scenarios.map((s) => s.name).join('+')}-latest`;
  const resultsDir = join(rootDir, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, `${stem}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(
    join(resultsDir, `${stem}.md`),
    `# npm run bench${full ? '' : ` -- ${scenarios.map((s) => `--scenario ${s.name}`).join(' ')}`}, ` +
      `${String(report.at)}\n\n${summaryMarkdown(rows)}\n\n${describeMachine(machine, args)}\n` +
      details.map((d) => `\n${d}\n`).join(''),
  );
  log(`wrote bench/results/${stem}.json and ${stem}.md`);
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
