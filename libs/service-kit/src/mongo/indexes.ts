import type { Connection } from 'mongoose';
import type { Logger } from 'pino';

/**
 * Waits until every model's declared indexes exist. Mongoose builds them in the background after a model
 * is compiled; a service that starts its relay, consumers and HTTP server before that answers its first
 * queries by reading whole collections (and, on a unique index, could accept a duplicate meanwhile).
 */
export async function ensureIndexes(connection: Connection, logger: Logger): Promise<void> {
  const started = Date.now();
  const models = Object.values(connection.models);
  await Promise.all(models.map((model) => model.init()));
  logger.info({ models: models.length, ms: Date.now() - started }, 'indexes ready');
}
