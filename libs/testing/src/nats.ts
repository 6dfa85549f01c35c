import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startNatsServer, type NatsServerHandle } from '@gl/infra';

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
