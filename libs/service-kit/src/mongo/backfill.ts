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
  let filled = 0;
  for (;;) {
    const batch = await collection
      .find({ [field]: null }, { projection: read })
      .limit(batchSize)
      .toArray();
    if (batch.length === 0) return filled;
    const updates: mongo.AnyBulkWriteOperation<mongo.Document>[] = batch.map((doc) => {
      const set = fill(doc);
      // A fill that leaves the field null would find the same documents again for ever.
      if (set[field] === null || set[field] === undefined)
        throw new Error(`backfill of ${field} left it empty`);
      return { updateOne: { filter: { _id: doc._id }, update: { $set: set } } };
    });
    await collection.bulkWrite(updates, { ordered: false });
    filled += batch.length;
  }
}
