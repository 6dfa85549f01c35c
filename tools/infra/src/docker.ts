import { execFile } from 'node:child_process';
import type { InfraHandle } from './types';

/** True only when an engine answers; the CLI alone (installed here without an engine) must fail fast, not hang. */
export function dockerAvailable(timeoutMs = 3000): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('docker', ['info', '--format', '{{.ServerVersion}}'], { timeout: timeoutMs }, (err) => {
      resolve(err === null);
    });
  });
}

export async function startDocker(log: (l: string) => void): Promise<InfraHandle> {
  // Lazy: testcontainers (and dockerode beneath it) is heavy and unused on the local path. Bundlers should
  // mark it external.
  const tc = await import('testcontainers');
  log('starting mongo:7 and nats:2.11 containers via testcontainers…');
  const [mongo, nats] = await Promise.allSettled([
    new tc.GenericContainer('mongo:7').withExposedPorts(27017).start(),
    // The image's default command loads a config without JetStream; -js alone enables it (store under /tmp).
    // The image has no shell, so the default port-probing wait strategy cannot run inside it; wait on the log.
    new tc.GenericContainer('nats:2.11')
      .withCommand(['-js'])
      .withExposedPorts(4222)
      .withWaitStrategy(tc.Wait.forLogMessage(/Server is ready/))
      .start(),
  ]);
  if (mongo.status === 'rejected' || nats.status === 'rejected') {
    await Promise.allSettled(
      [mongo, nats].flatMap((r) => (r.status === 'fulfilled' ? [r.value.stop()] : [])),
    );
    throw (mongo.status === 'rejected' ? mongo.reason : (nats as PromiseRejectedResult).reason) as Error;
  }
  const m = mongo.value;
  const n = nats.value;
  let stopping: Promise<void> | undefined;
  return {
    mongoUrl: `mongodb://${m.getHost()}:${m.getMappedPort(27017)}`,
    natsUrl: `nats://${n.getHost()}:${n.getMappedPort(4222)}`,
    source: 'docker',
    stop: () => (stopping ??= Promise.all([m.stop(), n.stop()]).then(() => undefined)),
  };
}
