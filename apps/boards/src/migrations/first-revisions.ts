import type { mongo } from 'mongoose';
import type { EventEnvelope } from '@gl/contracts';
import { drainBatches, pushEvents } from '@gl/service-kit';

/** Documents read, and published, per batch. */
const BATCH = 500;

/**
 * Publishes each document of `collection` written before its definition event existed, at revision 1:
 * `eventOf` gives the event of the document as revised. Each event rides on its document's own write (the
 * outbox relays it once the service runs); a document already at a revision is never read again, so a
 * step killed half-way resumes. Resolves with how many were published.
 */
export function publishFirstRevisions(
  collection: mongo.Collection<mongo.Document>,
  eventOf: (revised: mongo.Document) => EventEnvelope,
): Promise<number> {
  return drainBatches(collection, { revision: null }, { batchSize: BATCH }, async (batch) => {
    await collection.bulkWrite(
      batch.map((doc): mongo.AnyBulkWriteOperation<mongo.Document> => ({
        updateOne: {
          filter: { _id: doc._id, revision: null },
          update: pushEvents({ $set: { revision: 1 } }, [eventOf({ ...doc, revision: 1 })]) as mongo.Document,
        },
      })),
      { ordered: false },
    );
  });
}
