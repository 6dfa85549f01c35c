import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TEST_ENV } from '../env';

type Harness = typeof import('../../../../tools/launcher/src/harness');
type InfraHandle = import('../../../../tools/launcher/src/harness').InfraHandle;
type RunningStack = import('../../../../tools/launcher/src/harness').RunningStack;

declare global {
  var __GL_INFRA__: InfraHandle | undefined;

  var __GL_STACK__: RunningStack | undefined;

  var __GL_STACK_INFRA__: InfraHandle | undefined;

  var __GL_SCAN_REPORT__: string | undefined;

  var __GL_RUN_PREPARED__: boolean | undefined;

  var __GL_BUILT__: 'launcher' | 'all' | undefined;
}

/**
 * Each run keeps its data folder (logs help after a failure) until a later run starts; folders whose owner
 * process is gone are removed then. A folder of a run still going on is left alone.
 */
function removeFinishedRuns(dataRoot: string): void {
  if (!existsSync(dataRoot)) return;
  for (const name of readdirSync(dataRoot)) {
    if (!/^(test|faults|free|replicas|cluster)-\d+$/.test(name)) continue;
    const ownerFile = join(dataRoot, name, 'owner.pid');
    const owner = existsSync(ownerFile) ? Number(readFileSync(ownerFile, 'utf8').trim()) : NaN;
    let alive = false;
    try {
      alive = Number.isInteger(owner) && owner > 0 && process.kill(owner, 0);
    } catch {
      alive = false;
    }
    if (!alive) rmSync(join(dataRoot, name), { recursive: true, force: true });
  }
}

interface RunPaths {
  rootDir: string;
  dataDir: string;
  log: (line: string) => void;
}

/**
 * The run's data folder, prepared once whichever project's setup comes first: finished runs' folders are
 * removed, this one is marked with its owner (a later run keeps it while this process lives). Then the
 * bundles the setup needs are rebuilt — global setup runs outside jest's module mapping and loads
 * infrastructure and stack control from them: component tests need only the launcher (the apps run
 * in-process under jest), end-to-end tests every app. esbuild takes well under a second, so the suites
 * always run the current code.
 */
async function prepareRun(bundles: 'launcher' | 'all'): Promise<RunPaths> {
  const rootDir = resolve(__dirname, '..', '..', '..', '..');
  const dataDir = join(rootDir, '.data', `test-${process.pid}`);
  const log = (line: string): void => {
    process.stdout.write(`[test-infra] ${line}\n`);
  };
  if (globalThis.__GL_RUN_PREPARED__ !== true) {
    removeFinishedRuns(join(rootDir, '.data'));
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'owner.pid'), `${process.pid}\n`);
    globalThis.__GL_RUN_PREPARED__ = true;
  }
  if (globalThis.__GL_BUILT__ !== 'all' && globalThis.__GL_BUILT__ !== bundles) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { buildAll } = require(join(rootDir, 'tools', 'build', 'build.js')) as {
      buildAll: (projectRoot?: string) => Promise<number>;
    };
    await buildAll(bundles === 'all' ? undefined : 'tools/launcher');
    globalThis.__GL_BUILT__ = bundles;
  }
  return { rootDir, dataDir, log };
}

function harness(rootDir: string): Harness {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(join(rootDir, 'dist', 'tools', 'harness.js')) as Harness;
}

/** Component tests: one database server and broker, shared by every test file (each uses its own database). */
export async function startComponentInfra(): Promise<void> {
  if (globalThis.__GL_INFRA__) return;
  const { rootDir, dataDir, log } = await prepareRun('launcher');
  const infra = await harness(rootDir).startInfra({
    rootDir,
    dataDir: join(dataDir, 'component'),
    fresh: true,
    log,
  });
  globalThis.__GL_INFRA__ = infra;
  process.env[TEST_ENV.mongoUrl] = infra.mongoUrl;
  process.env[TEST_ENV.natsUrl] = infra.natsUrl;
}

/**
 * End-to-end tests: the whole stack on a database server and broker of its own (component tests publish
 * events about whatever ids suit them, which the stack's consumers would take for facts; with
 * MONGO_URL/NATS_URL given, both are shared). Every query shape the stack's database answers by reading a
 * whole table is reported, and global teardown fails the run on any that intended-scans.ts does not
 * explain: request paths use indexes.
 */
export async function startE2eStack(): Promise<void> {
  if (globalThis.__GL_STACK__) return;
  const { rootDir, dataDir, log } = await prepareRun('all');
  const { freePort, startInfra, startStack } = harness(rootDir);
  const scanReport = join(dataDir, 'stack-scans.jsonl');
  globalThis.__GL_SCAN_REPORT__ = scanReport;
  const stackInfra = await startInfra({
    rootDir,
    dataDir: join(dataDir, 'stack'),
    fresh: true,
    log,
    scanReport,
  });
  globalThis.__GL_STACK_INFRA__ = stackInfra;
  process.env[TEST_ENV.stackMongoUrl] = stackInfra.mongoUrl;
  process.env[TEST_ENV.stackNatsUrl] = stackInfra.natsUrl;
  // The registry e2e suite runs a Docker registry on this port; the registry service is told where it is.
  process.env.GL_TEST_REGISTRY_PORT = String(await freePort());
  process.env.GL_TEST_REGISTRY_SECRET = `e2e-registry-${process.pid}-${Date.now()}`;
  const stack = await startStack({
    rootDir,
    dataDir,
    mongoUrl: stackInfra.mongoUrl,
    natsUrl: stackInfra.natsUrl,
    gatewayPort: 0,
    databasePrefix: 'e2e_',
    tier: 'ultimate',
    extraEnv: {
      LOG_LEVEL: 'warn',
      REGISTRY_NOTIFICATION_SECRET: process.env.GL_TEST_REGISTRY_SECRET,
      REGISTRY_HOST: `127.0.0.1:${process.env.GL_TEST_REGISTRY_PORT}`,
      REGISTRY_API_URL: `http://127.0.0.1:${process.env.GL_TEST_REGISTRY_PORT}`,
    },
    log,
  });
  globalThis.__GL_STACK__ = stack;
  process.env[TEST_ENV.gatewayUrl] = stack.gatewayUrl;
  process.env[TEST_ENV.rootToken] = stack.rootToken;
  process.env[TEST_ENV.stackInfo] = JSON.stringify({ serviceUrls: stack.serviceUrls, pids: stack.pids });
}
