import { drainBatches, type Migration } from '@gl/service-kit';

const BATCH = 1_000;

/**
 * Gives `at` to ingestion records written before it existed, so the retention job can remove them one
 * stream age from now. Each batch is replaced (deleted and inserted again) rather than updated, as the
 * store marks records done: the local database deletes and inserts hundreds of documents in a few
 * milliseconds but updates about two a millisecond. A crash between the two writes of a batch only drops
 * guards an already recorded event does not need (its activity is found by its event id). Idempotent.
 */
export function ingestedTimestampsMigration(version: number): Migration {
  return {
    version,
    name: 'ingested: records carry when they were written',
    async up(connection, logger) {
      const ingested = connection.collection<{ _id: string; at?: Date | null }>('ingested');
      const at = new Date();
      const stamped = await drainBatches(
        ingested,
        { at: null },
        { batchSize: BATCH },
        async (batch, done) => {
          await ingested.deleteMany({ _id: { $in: batch.map((doc) => doc._id) } });
          await ingested.insertMany(
            batch.map((doc) => ({ ...doc, at })),
            { ordered: false },
          );
          const stamping = done + batch.length;
          if (stamping % 100_000 < BATCH) logger.info({ stamped: stamping }, 'ingested: stamping records');
        },
      );
      if (stamped > 0) logger.info({ stamped }, 'ingested: records stamped');
    },
  };
}
