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

/**
 * Drops the named indexes that exist on `collection` (a migration replacing indexes with wider ones: the
 * old ones would only cost every write and could still be chosen by the planner). Idempotent: an index
 * already gone is skipped. Resolves with the names dropped.
 */
export async function dropIndexesIfPresent(
  collection: { indexes(): Promise<{ name?: string }[]>; dropIndex(name: string): Promise<unknown> },
  names: readonly string[],
): Promise<string[]> {
  const present = new Set((await collection.indexes()).map((index) => index.name));
  const dropped = names.filter((name) => present.has(name));
  for (const name of dropped) await collection.dropIndex(name);
  return dropped;
}
