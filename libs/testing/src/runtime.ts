import { randomBytes } from 'node:crypto';
import {
  DEFAULT_STREAM_LIMITS,
  connectBus,
  createLogger,
  createMetrics,
  createOutbox,
  mongoReady,
  openResourceVersions,
  type BaseServiceConfig,
  type ServiceRuntime,
} from '@gl/service-kit';
import { createTestDatabase, type TestDatabase } from './database';
import { testEnv } from './env';

export const TEST_CONTEXT_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

export interface TestRuntime<C extends BaseServiceConfig = BaseServiceConfig> extends ServiceRuntime<C> {
  database: TestDatabase;
  close(): Promise<void>;
}

/**
 * The dependencies `main.ts` would build, against the test server and bus: component tests hand this to
 * `createXApp(runtime)` and drive the app in-process.
 */
export async function createTestRuntime<C extends BaseServiceConfig = BaseServiceConfig>(
  service: string,
  extraConfig: Omit<C, keyof BaseServiceConfig> = {} as Omit<C, keyof BaseServiceConfig>,
): Promise<TestRuntime<C>> {
  const database = await createTestDatabase(service);
  const logger = createLogger(service, process.env.TEST_LOG_LEVEL ?? 'silent');
  const metrics = createMetrics(service);
  const bus = await connectBus(
    testEnv('natsUrl'),
    `${service}-test-${randomBytes(3).toString('hex')}`,
    logger,
  );
  const outbox = createOutbox({ connection: database.connection, bus, logger, metrics, intervalMs: 200 });
  const config = {
    PORT: 0,
    HOST: '127.0.0.1',
    MONGO_URL: testEnv('mongoUrl'),
    NATS_URL: testEnv('natsUrl'),
    INTERNAL_CONTEXT_SECRET: TEST_CONTEXT_SECRET,
    LOG_LEVEL: 'silent' as const,
    NATS_STREAM_MAX_AGE: DEFAULT_STREAM_LIMITS.maxAgeMs,
    NATS_STREAM_MAX_BYTES: DEFAULT_STREAM_LIMITS.maxBytes,
    ...extraConfig,
  } as unknown as C;
  return {
    config,
    logger,
    metrics,
    connection: database.connection,
    bus,
    outbox,
    versions: await openResourceVersions(bus),
    database,
    readiness: async () => ({ mongo: await mongoReady(database.connection), nats: bus.isConnected() }),
    async close() {
      await outbox.stop();
      await bus.close();
      await database.drop();
    },
  };
}
