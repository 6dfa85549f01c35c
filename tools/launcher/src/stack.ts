import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '@gl/infra';

/** The six services behind the gateway, in start order. */
export const STACK_SERVICES = [
  'boards',
  'discussions',
  'alerts',
  'notifications',
  'events',
  'registry',
] as const;
export type StackService = (typeof STACK_SERVICES)[number];

/** Worker processes started next to a service, with its environment and their own port. */
export const STACK_WORKERS = { 'registry-worker': { service: 'registry', entry: 'worker.js' } } as const;
export type StackWorker = keyof typeof STACK_WORKERS;

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
}

export interface RunningStack {
  gatewayUrl: string;
  serviceUrls: Record<StackService, string>;
  rootToken: string;
  rootTokenFile: string | null;
  pids: Record<string, number>;
  /** Stops one process (fault tests); `restart` brings it back with the same port and environment. */
  kill(name: StackService | StackWorker | 'gateway', signal?: NodeJS.Signals): Promise<void>;
  restart(name: StackService | StackWorker | 'gateway'): Promise<void>;
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

/**
 * Starts the six services and the gateway from dist/ as child processes on loopback, each with its own
 * port, and waits until the gateway reports every service ready. Used by `npm start`, the end-to-end
 * tests and the benchmarks, so all three run the same thing.
 */
export async function startStack(options: StackOptions): Promise<RunningStack> {
  const log = options.log ?? (() => undefined);
  const logsDir = join(options.dataDir, 'logs');
  mkdirSync(logsDir, { recursive: true });
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
    ...options.extraEnv,
  };

  function launch(name: string): ChildProcess {
    const worker = STACK_WORKERS[name as StackWorker] as (typeof STACK_WORKERS)[StackWorker] | undefined;
    const entry = worker
      ? join(options.rootDir, 'dist', 'apps', worker.service, worker.entry)
      : join(options.rootDir, 'dist', 'apps', name, 'main.js');
    if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
    const child = spawn(process.execPath, ['--enable-source-maps', entry], {
      cwd: options.rootDir,
      env: { ...process.env, ...envs.get(name) },
      stdio: options.output === 'inherit' ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    if (options.output !== 'inherit') {
      const out = createWriteStream(join(logsDir, `${name}.log`), { flags: 'a' });
      child.stdout?.pipe(out);
      child.stderr?.pipe(out);
    }
    children.set(name, child);
    return child;
  }

  const serviceUrls = {} as Record<StackService, string>;
  for (const name of STACK_SERVICES) {
    const port = await freePort();
    serviceUrls[name] = `http://127.0.0.1:${port}`;
    envs.set(name, { ...common, PORT: String(port), MONGO_DB: `${prefix}${name}` });
  }
  const workerUrls: Record<string, string> = {};
  for (const [name, worker] of Object.entries(STACK_WORKERS)) {
    const port = await freePort();
    workerUrls[name] = `http://127.0.0.1:${port}`;
    envs.set(name, { ...envs.get(worker.service), PORT: String(port) });
  }
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
    ...Object.fromEntries(STACK_SERVICES.map((s) => [`${s.toUpperCase()}_URL`, serviceUrls[s]])),
  });

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
    for (const name of STACK_SERVICES) launch(name);
    for (const name of Object.keys(workerUrls)) launch(name);
    const urls: Record<string, string> = { ...serviceUrls, ...workerUrls };
    await Promise.all(
      Object.entries(urls).map(([name, url]) =>
        waitForReady(url, children.get(name)!, name, join(logsDir, `${name}.log`), 60_000),
      ),
    );
    log(`six services ready in ${Date.now() - started} ms`);
    launch('gateway');
    await waitForReady(gatewayUrl, children.get('gateway')!, 'gateway', join(logsDir, 'gateway.log'), 60_000);
    log(`gateway ready at ${gatewayUrl} after ${Date.now() - started} ms`);
  } catch (err) {
    await stop();
    throw err;
  }

  const rootTokenFile = options.rootToken ? null : join(options.dataDir, 'root-token');
  const rootToken = options.rootToken ?? readFileSync(rootTokenFile!, 'utf8').trim();

  return {
    gatewayUrl,
    serviceUrls,
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
      const url = name === 'gateway' ? gatewayUrl : (workerUrls[name] ?? serviceUrls[name as StackService]);
      await waitForReady(url, child, name, join(logsDir, `${name}.log`), 60_000);
    },
    async stop() {
      process.removeListener('exit', onExit);
      await stop();
    },
  };
}
