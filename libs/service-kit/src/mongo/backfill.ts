import type { mongo } from 'mongoose';

/**
 * A migration's fill of a field that documents written before it existed lack: reads `batchSize` documents
 * without `field` at a time (by the field's index: `{field: null}` matches the missing ones), computes what
 * to `$set` from the `read` fields, and writes the batch in one unordered bulk write. Idempotent: a
 * document that has the field is never read again, so a step killed half-way resumes where it stopped.
 */
export async function backfillMissing(
  collection: mongo.Collection<mongo.Document>,
  field: string,
  read: Record<string, 1>,
  fill: (doc: mongo.Document) => mongo.Document,
  batchSize = 500,
): Promise<number> {
  return drainBatches(collection, { [field]: null }, { projection: read, batchSize }, async (batch) => {
    const updates: mongo.AnyBulkWriteOperation<mongo.Document>[] = batch.map((doc) => {
      const set = fill(doc);
      // A fill that leaves the field null would find the same documents again for ever.
      if (set[field] === null || set[field] === undefined)
        throw new Error(`backfill of ${field} left it empty`);
      return { updateOne: { filter: { _id: doc._id }, update: { $set: set } } };
    });
    await collection.bulkWrite(updates, { ordered: false });
  });
}

/**
 * A migration's pass over the documents still to do: reads up to `batchSize` documents matching `filter`
 * and hands them to `write`, again and again until none matches; resolves with how many were handed.
 * `write` must leave every document it gets outside the filter (the next read would find it again), so
 * a step killed half-way resumes with what is left. `done` counts the documents before this batch.
 */
export async function drainBatches<T extends mongo.Document>(
  collection: mongo.Collection<T>,
  filter: mongo.Filter<T>,
  options: { batchSize: number; projection?: mongo.Document },
  write: (batch: mongo.WithId<T>[], done: number) => Promise<void>,
): Promise<number> {
  let done = 0;
  for (;;) {
    const batch = await collection
      .find(filter, options.projection ? { projection: options.projection } : {})
      .limit(options.batchSize)
      .toArray();
    if (batch.length === 0) return done;
    await write(batch, done);
    done += batch.length;
  }
}
