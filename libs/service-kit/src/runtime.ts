import type { Server } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import type { Logger } from 'pino';
import { z } from 'zod';
import { baseServiceConfig, loadConfig, ConfigError, type BaseServiceConfig } from './config';
import { createLogger } from './logging';
import { createMetrics, type ServiceMetrics } from './metrics';
import { connectMongo, mongoReady } from './mongo/connection';
import { ensureIndexes } from './mongo/indexes';
import { runMigrations, type Migration } from './mongo/migrations';
import { connectBus, type Bus } from './bus/bus';
import { createOutbox, type Outbox } from './bus/outbox';
import { startConsumer, type RunningConsumer, type Subscription } from './bus/consumer';
import { bumpingAfterWrites } from './bus/version-bumping';
import {
  openResourceVersions,
  serviceVersionKey,
  versionKeyIsRead,
  type ResourceVersions,
} from './bus/resource-versions';
import { watchParent } from './parent-watch';
import { watchStorage } from './storage-metrics';
import { answerOversizedRequests } from './http/request-line';
import { answerExpectContinue } from './http/body-edge';

/** What a service's composition root hands to its `createApp`. */
export interface ServiceRuntime<C extends BaseServiceConfig = BaseServiceConfig> {
  config: Readonly<C>;
  logger: Logger;
  metrics: ServiceMetrics;
  connection: Connection;
  bus: Bus;
  outbox: Outbox;
  /** What the gateway's conditional GETs compare (bus/resource-versions.ts); writes bump it. */
  versions: ResourceVersions;
  readiness: () => Promise<Record<string, boolean>>;
}

export interface ServiceDefinition<S extends z.ZodObject> {
  name: string;
  /** Extra config keys beyond baseServiceConfig; merged into one schema. */
  configSchema?: S;
  /** Database name default; overridable with MONGO_DB. */
  database: string;
  createApp: (
    runtime: ServiceRuntime<BaseServiceConfig & z.infer<S>>,
  ) => Promise<ServiceInstance> | ServiceInstance;
  /** The database's versioned steps (libs/service-kit/src/mongo/migrations.ts), applied before serving. */
  migrations?: readonly Migration[];
  /**
   * The resource-versions key this process's consumers bump after each event or batch they apply
   * (default the service's own, `<name>.all`): a worker names the service whose answers it changes.
   */
  consumerVersionKey?: string;
}

export interface ServiceInstance {
  app: Express;
  subscriptions?: Subscription[];
  /** Background work (periodic jobs, workers) started after listening, stopped before disconnecting. */
  start?: () => void;
  stop?: () => Promise<void>;
}

export interface RunningService {
  server: Server;
  port: number;
  shutdown(reason: string): Promise<void>;
}

/**
 * The only composition root: reads config, connects storage and bus, starts the relay, consumers and HTTP
 * server, and shuts all of it down in reverse order on SIGINT/SIGTERM.
 */
export async function runService<S extends z.ZodObject>(
  definition: ServiceDefinition<S>,
  env: Record<string, string | undefined> = process.env,
): Promise<RunningService> {
  const schema = baseServiceConfig.extend({
    MONGO_DB: z.string().default(definition.database),
    ...(definition.configSchema?.shape ?? {}),
  });
  let config: BaseServiceConfig & z.infer<S> & { MONGO_DB: string };
  try {
    config = loadConfig(definition.name, schema, env) as typeof config;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
  const logger = createLogger(definition.name, config.LOG_LEVEL);
  const metrics = createMetrics(definition.name);

  const connection = await connectMongo(config.MONGO_URL, config.MONGO_DB);
  const bus = await connectBus(config.NATS_URL, definition.name, logger, {
    streamReplicas: config.NATS_STREAM_REPLICAS,
    streamLimits: { maxAgeMs: config.NATS_STREAM_MAX_AGE, maxBytes: config.NATS_STREAM_MAX_BYTES },
  });
  watchStorage(metrics, connection, bus);
  const versions = await openResourceVersions(bus, { replicas: config.NATS_STREAM_REPLICAS, logger });
  const consumerVersionKey = definition.consumerVersionKey ?? serviceVersionKey(definition.name);
  const outbox = createOutbox({ connection, bus, logger, metrics, maxAttempts: config.OUTBOX_MAX_ATTEMPTS });
  const readiness = async (): Promise<Record<string, boolean>> => ({
    mongo: await mongoReady(connection),
    nats: bus.isConnected(),
  });

  const instance = await definition.createApp({
    config,
    logger,
    metrics,
    connection,
    bus,
    outbox,
    versions,
    readiness,
  });
  if (definition.migrations) {
    await runMigrations(connection, definition.migrations, {
      logger,
      owner: `${definition.name}@${hostname()}:${process.pid}`,
    });
  }
  await ensureIndexes(connection, logger);
  // A process that died between a write and its bump left that write untold: every start bumps its key.
  const bumps = versionKeyIsRead(consumerVersionKey);
  if (bumps) await versions.bump([consumerVersionKey]);
  const consumers: RunningConsumer[] = [];
  for (const subscription of instance.subscriptions ?? []) {
    const bumping = bumps
      ? bumpingAfterWrites(subscription, () => versions.bump([consumerVersionKey]))
      : subscription;
    consumers.push(await startConsumer(bus, bumping, logger, metrics));
  }
  outbox.start();
  instance.start?.();

  const server = instance.app.listen(config.PORT, config.HOST);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  answerOversizedRequests(server);
  answerExpectContinue(server);
  // Keep-alive longer than the gateway's agent so the proxy never reuses a socket we are closing.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const port = (server.address() as AddressInfo).port;
  logger.info({ port, host: config.HOST, database: config.MONGO_DB }, `${definition.name} listening`);

  let closing: Promise<void> | null = null;
  const shutdown = (reason: string): Promise<void> => {
    closing ??= (async () => {
      logger.info({ reason }, 'shutting down');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await instance.stop?.();
      for (const consumer of consumers) await consumer.stop();
      await outbox.stop();
      await bus.close().catch(() => undefined);
      await connection.close().catch(() => undefined);
      logger.info('stopped');
    })();
    return closing;
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void shutdown(signal).then(() => process.exit(0));
    });
  }
  // Started by our launcher (npm start, tests, bench): go when it goes, however it ended.
  const launcherPid = Number(env.GL_PARENT_PID);
  if (Number.isInteger(launcherPid) && launcherPid > 0) {
    watchParent(launcherPid, () => {
      logger.warn({ launcherPid }, 'launcher exited; shutting down');
      void shutdown('launcher exited').then(() => process.exit(0));
    });
  }
  return { server, port, shutdown };
}
