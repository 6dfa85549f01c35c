import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startInfra } from '@gl/infra';
import { watchParent } from '@gl/service-kit';
import { CLUSTER_STREAM_REPLICAS, natsClusterFromCli } from './nats-cluster';
import { replicasFromCli } from './replicas';
import { STACK_SERVICES, STACK_WORKERS, startStack, type StackService, type StackWorker } from './stack';

/**
 * `npm start`: infrastructure (env, Docker or local FerretDB + NATS), then the seven services and the
 * gateway; prints where it listens and where the root token is; Ctrl-C stops everything.
 * `npm start -- --replicas events=2,boards=2` (or GL_REPLICAS) runs several processes of a service;
 * `--nats-cluster 3` (or GL_NATS_CLUSTER) runs the local broker as a three-node JetStream cluster.
 */
async function main(): Promise<void> {
  const parentPid = process.ppid;
  const kinds: (StackService | StackWorker)[] = [
    ...STACK_SERVICES,
    ...(Object.keys(STACK_WORKERS) as StackWorker[]),
  ];
  // Read before anything starts, so a mistyped flag costs nothing.
  const cluster = natsClusterFromCli(process.argv.slice(2), process.env);
  const replicas = replicasFromCli(cluster.rest, process.env, kinds);
  const rootDir = resolve(__dirname, '..', '..');
  const dataDir = resolve(rootDir, process.env.DATA_DIR ?? '.data/dev');
  const log = (line: string): void => {
    process.stdout.write(`[start] ${line}\n`);
  };
  const infra = await startInfra({ rootDir, dataDir, log, natsNodes: cluster.nodes });
  log(`infrastructure (${infra.source}): ${infra.mongoUrl}, ${infra.natsUrl}`);
  const tokenFile = join(dataDir, 'root-token');
  const firstStart = !process.env.GITLAB_ROOT_TOKEN && !existsSync(tokenFile);
  const port = Number(process.env.PORT ?? 8080);
  let stack;
  try {
    stack = await startStack({
      rootDir,
      dataDir,
      mongoUrl: infra.mongoUrl,
      natsUrl: infra.natsUrl,
      gatewayPort: port,
      externalUrl: process.env.GITLAB_EXTERNAL_URL,
      tier: (process.env.GITLAB_TIER as 'free' | 'premium' | 'ultimate' | undefined) ?? 'ultimate',
      rootToken: process.env.GITLAB_ROOT_TOKEN,
      replicas,
      // On a local cluster the stream keeps copies on several nodes, or losing one would lose it (a
      // NATS_STREAM_REPLICAS of the caller's own wins).
      ...(cluster.nodes > 1 && infra.source === 'local' && !process.env.NATS_STREAM_REPLICAS
        ? { extraEnv: { NATS_STREAM_REPLICAS: String(CLUSTER_STREAM_REPLICAS) } }
        : {}),
      log,
    });
  } catch (err) {
    await infra.stop();
    throw err;
  }
  log(`GitLab API v4 ready: ${stack.gatewayUrl}/api/v4 (logs in ${join(dataDir, 'logs')})`);
  // `npm run backup` finds the gateway here to hold its writes for the copy's cut (tools/backup/src/fence.ts).
  const gatewayUrlFile = join(dataDir, 'gateway.url');
  writeFileSync(gatewayUrlFile, `${stack.gatewayUrl}\n`);
  if (stack.rootTokenFile) {
    log(`root token (user root, id 1) is in ${stack.rootTokenFile}`);
    if (firstStart) log(`root token: ${stack.rootToken}`);
  } else {
    log('root token: the value of GITLAB_ROOT_TOKEN');
  }
  log('press Ctrl-C to stop');

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    rmSync(gatewayUrlFile, { force: true });
    await stack.stop();
    await infra.stop();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  // `npm start` killed by a supervisor does not pass the signal on: stop when our parent is gone.
  watchParent(parentPid, () => void shutdown('parent process exited'));
}

main().catch((err: unknown) => {
  process.stderr.write(`[start] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
