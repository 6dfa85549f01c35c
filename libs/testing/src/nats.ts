import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  ensureBinaries,
  startNatsNodes,
  startNatsServer,
  type NatsNodes,
  type NatsServerHandle,
} from '@gl/infra';

export type TestNats = NatsServerHandle;

/**
 * A broker of the test's own, beside the shared one: configured differently (`maxPayload`) or stopped and
 * restarted by the test. Its store is a temporary folder, removed by `destroy()`.
 */
export function startTestNats(options: { maxPayload?: number } = {}): Promise<TestNats> {
  return startNatsServer({
    rootDir: resolve(__dirname, '..', '..', '..'),
    dataDir: mkdtempSync(join(tmpdir(), 'gl-test-nats-')),
    maxPayload: options.maxPayload,
  });
}

export type TestNatsCluster = NatsNodes & { destroy(): Promise<void> };

/**
 * A JetStream cluster of the test's own (`url` names every node): nodes are killed and restarted by the
 * test. Its stores and logs are a temporary folder, removed by `destroy()`.
 */
export async function startTestNatsCluster(nodes = 3): Promise<TestNatsCluster> {
  const rootDir = resolve(__dirname, '..', '..', '..');
  const dataDir = mkdtempSync(join(tmpdir(), 'gl-test-nats-cluster-'));
  const { natsServer } = await ensureBinaries(rootDir);
  const cluster = await startNatsNodes({ bin: natsServer, dataDir, nodes, log: () => undefined });
  return Object.assign(cluster, {
    async destroy() {
      await cluster.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
