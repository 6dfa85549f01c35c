import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRotatingLog, freePort, logLimitsFromEnv } from '@gl/infra';
import { replicaNames, type ReplicaCounts } from './replicas';

/** The services behind the gateway, in start order. */
export const STACK_SERVICES = [
  'boards',
  'discussions',
  'alerts',
  'notifications',
  'events',
  'registry',
  'hooks',
] as const;
export type StackService = (typeof STACK_SERVICES)[number];

/** Worker processes started next to a service, with its environment and their own port. */
export const STACK_WORKERS = { 'registry-worker': { service: 'registry', entry: 'worker.js' } } as const;
export type StackWorker = keyof typeof STACK_WORKERS;
/** A process the stack runs: a service or worker (its further replicas are `events-2`, …) or the gateway. */
export type StackProcess =
  StackService | StackWorker | 'gateway' | `${StackService | StackWorker | 'gateway'}-${number}`;

export interface StackOptions {
  rootDir: string;
  dataDir: string;
  mongoUrl: string;
  natsUrl: string;
  /** Gateway port; 0 picks a free one. */
  gatewayPort: number;
  externalUrl?: string;
  tier?: 'free' | 'premium' | 'ultimate';
  rootToken?: string;
  /** INTERNAL_CONTEXT_SECRET shared by gateway and services; random when omitted (the bench signs with it). */
  contextSecret?: string;
  /** Database name prefix, so several stacks can share one server (tests, benchmarks). */
  databasePrefix?: string;
  extraEnv?: Record<string, string>;
  log?: (line: string) => void;
  /** Where child output goes: 'files' (under dataDir/logs) or 'inherit'. */
  output?: 'files' | 'inherit';
  /** Processes per service or worker (default one each); the gateway spreads requests over them. */
  replicas?: ReplicaCounts<StackService | StackWorker>;
  /**
   * Gateway processes (default 1): `gateway-2`… on ports of their own, sharing the first one's database,
   * bus and external URL, for tests of what replicas share (rate-limit counts, identity cache flushes).
   */
  gateways?: number;
}

export interface RunningStack {
  gatewayUrl: string;
  /** Every gateway process's URL, the first being `gatewayUrl`. */
  gatewayUrls: string[];
  /** Each service's first replica. */
  serviceUrls: Record<StackService, string>;
  /** Every replica's URL of each service and worker, in process-name order (`events`, `events-2`, …). */
  replicaUrls: Record<StackService | StackWorker, string[]>;
  rootToken: string;
  rootTokenFile: string | null;
  pids: Record<string, number>;
  /** Stops one process (fault tests); `restart` brings it back with the same port and environment. */
  kill(name: StackProcess, signal?: NodeJS.Signals): Promise<void>;
  restart(name: StackProcess): Promise<void>;
  stop(): Promise<void>;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function waitForReady(
  url: string,
  child: ChildProcess,
  name: string,
  logHint: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${name} exited with code ${child.exitCode} during start; see ${logHint}`);
    try {
      const response = await fetch(`${url}/-/readiness`, { signal: AbortSignal.timeout(1_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${name} not ready after ${timeoutMs} ms; see ${logHint}`);
}

/** ` (events ×2, registry-worker ×2)` for kinds started more than once, nothing when none is. */
function replicaSummary(replicaUrls: Record<string, string[]>): string {
  const several = Object.entries(replicaUrls).filter(([, urls]) => urls.length > 1);
  return several.length ? ` (${several.map(([kind, urls]) => `${kind} ×${urls.length}`).join(', ')})` : '';
}

/**
 * `GL_CPU_PROF_DIR=<dir>`: every process writes a V8 CPU profile there when it stops (`--cpu-prof`), named
 * after the process and its start, to open in Chrome DevTools or speedscope; how to see where a request's time goes.
 */
function profilingArgs(name: string): string[] {
  const dir = process.env.GL_CPU_PROF_DIR;
  if (!dir) return [];
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${name}.${Date.now()}.cpuprofile`];
}

/**
 * Starts the seven services and the gateway from dist/ as child processes on loopback, each with its own
 * port, and waits until the gateway reports every service ready. Used by `npm start`, the end-to-end
 * tests and the benchmarks, so all three run the same thing.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? (() => undefined);
  const logsDir = join(options.dataDir, 'logs');
  mkdirSync(logsDir, { recursive: true });
  const logLimits = logLimitsFromEnv();
  const secret = options.contextSecret ?? randomBytes(32).toString('hex');
  const prefix = options.databasePrefix ?? 'gl_';
  const children = new Map<string, ChildProcess>();
  const envs = new Map<string, NodeJS.ProcessEnv>();

  const common = {
    // Children stop by themselves if this process disappears without stopping them (see watchParent).
    GL_PARENT_PID: String(process.pid),
    MONGO_URL: options.mongoUrl,
    NATS_URL: options.natsUrl,
    INTERNAL_CONTEXT_SECRET: secret,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    // Each process reports the folder's size in /metrics (log_directory_bytes).
    ...(options.output === 'inherit' ? {} : { GL_LOG_DIR: logsDir }),
    ...options.extraEnv,
  };

  /** Each process's kind (`events-2` is an `events`), so a replica runs its kind's entry point. */
  const kinds = new Map<string, string>([['gateway', 'gateway']]);
  function launch(name: string): ChildProcess {
    const kind = kinds.get(name);
    if (!kind) throw new Error(`no process named ${name} in this stack`);
    const worker = STACK_WORKERS[kind as StackWorker] as (typeof STACK_WORKERS)[StackWorker] | undefined;
    const entry = worker
      ? join(options.rootDir, 'dist', 'apps', worker.service, worker.entry)
      : join(options.rootDir, 'dist', 'apps', kind, 'main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
    const child = spawn(process.execPath, ['--enable-source-maps', ...profilingArgs(name), entry], {
      cwd: options.rootDir,
      env: { ...process.env, ...envs.get(name) },
      stdio: options.output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    if (options.output !== 'inherit') {
      // Rotated by size, the folder capped (GL_LOG_FILE_MAX_BYTES, GL_LOG_FILES, GL_LOG_DIR_MAX_BYTES).
      const out = createRotatingLog(join(logsDir, `${name}.log`), logLimits);
      child.stdout?.pipe(out, { end: false });
      child.stderr?.pipe(out, { end: false });
      child.once('close', () => out.end());
    }
    children.set(name, child);
    return child;
  }

  // Replicas of a service share its database and bus consumers; each has its own port.
  const processUrls = new Map<string, string>();
  const replicaUrls = {} as Record<StackService | StackWorker, string[]>;
  const kindEnv = (kind: StackService | StackWorker): NodeJS.ProcessEnv => {
    const service = kind in STACK_WORKERS ? STACK_WORKERS[kind as StackWorker].service : kind;
    return { ...common, MONGO_DB: `${prefix}${service}` };
  };
  for (const kind of [...STACK_SERVICES, ...(Object.keys(STACK_WORKERS) as StackWorker[])]) {
    replicaUrls[kind] = [];
    for (const name of replicaNames(kind, options.replicas?.[kind])) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      kinds.set(name, kind);
      processUrls.set(name, url);
      replicaUrls[kind].push(url);
      envs.set(name, { ...kindEnv(kind), PORT: String(port) });
    }
  }
  const serviceUrls = Object.fromEntries(STACK_SERVICES.map((s) => [s, replicaUrls[s][0]!])) as Record<
    StackService,
    string
  >;
  const gatewayPort = options.gatewayPort || (await freePort());
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  envs.set('gateway', {
    ...common,
    PORT: String(gatewayPort),
    MONGO_DB: `${prefix}gateway`,
    DATA_DIR: options.dataDir,
    // The URL clients are told to use (and web_url fields carry) is the one the gateway is reached at.
    GITLAB_EXTERNAL_URL: options.externalUrl ?? gatewayUrl,
    GITLAB_TIER: options.tier ?? 'ultimate',
    ...(options.rootToken ? { GITLAB_ROOT_TOKEN: options.rootToken } : {}),
    ...Object.fromEntries(STACK_SERVICES.map((s) => [`${s.toUpperCase()}_URL`, replicaUrls[s].join(',')])),
  });

  // Hook payloads read discussions (every replica, in turn, as the gateway does) and carry the gateway's URL.
  for (const name of replicaNames('hooks', options.replicas?.hooks)) {
    envs.set(name, {
      ...envs.get(name),
      DISCUSSIONS_URL: replicaUrls.discussions.join(','),
      GITLAB_EXTERNAL_URL: options.externalUrl ?? gatewayUrl,
    });
  }

  const gatewayUrls = [gatewayUrl];
  for (let n = 2; n <= (options.gateways ?? 1); n++) {
    const port = await freePort();
    kinds.set(`gateway-${n}`, 'gateway');
    envs.set(`gateway-${n}`, { ...envs.get('gateway'), PORT: String(port) });
    gatewayUrls.push(`http://127.0.0.1:${port}`);
  }

  const stop = async (): Promise<void> => {
    const running = [...children.values()];
    for (const child of running) child.kill('SIGTERM');
    await Promise.all(running.map((child) => waitForExit(child, 5_000)));
  };
  const onExit = (): void => {
    for (const child of children.values()) if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', onExit);

  try {
    const started = Date.now();
    for (const name of processUrls.keys()) launch(name);
    await Promise.all(
      [...processUrls].map(([name, url]) =>
        waitForReady(url, children.get(name)!, name, join(logsDir, `${name}.log`), 60_000),
      ),
    );
    log(
      `${STACK_SERVICES.length} services ready in ${Date.now() - started} ms${replicaSummary(replicaUrls)}`,
    );
    launch('gateway');
    await waitForReady(gatewayUrl, children.get('gateway')!, 'gateway', join(logsDir, 'gateway.log'), 60_000);
    log(`gateway ready at ${gatewayUrl} after ${Date.now() - started} ms`);
    // Further gateways start once the first has seeded the root user and migrated the identity database.
    for (const [name, url] of gatewayUrls.slice(1).map((u, i) => [`gateway-${i + 2}`, u] as const)) {
      launch(name);
      await waitForReady(url, children.get(name)!, name, join(logsDir, `${name}.log`), 60_000);
    }
  } catch (err) {
    await stop();
    throw err;
  }

  const rootTokenFile = options.rootToken ? null : join(options.dataDir, 'root-token');
  const rootToken = options.rootToken ?? readFileSync(rootTokenFile!, 'utf8').trim();

  return {
    gatewayUrl,
    gatewayUrls,
    serviceUrls,
    replicaUrls,
    rootToken,
    rootTokenFile,
    get pids() {
      return Object.fromEntries([...children].map(([name, child]) => [name, child.pid ?? -1]));
    },
    async kill(name, signal = 'SIGKILL') {
      const child = children.get(name);
      if (!child) return;
      child.kill(signal);
      await waitForExit(child, 5_000);
    },
    async restart(name) {
      const child = launch(name);
      const url = name.startsWith('gateway')
        ? gatewayUrls[name === 'gateway' ? 0 : Number(name.slice('gateway-'.length)) - 1]!
        : processUrls.get(name)!;
      await waitForReady(url, child, name, join(logsDir, `${name}.log`), 60_000);
    },
    async stop() {
      process.removeListener('exit', onExit);
      await stop();
    },
  };
}
