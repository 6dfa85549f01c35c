import type { FilterQuery, Model } from 'mongoose';

/** Well below SQLite's 32,766 bound variables per statement. */
export const DELETE_BATCH = 10_000;

/**
 * Deletes every document matching `filter`, at most `batchSize` ids per statement. FerretDB v1 on SQLite
 * runs a `deleteMany` as one `DELETE … WHERE _id IN (?, …)` over all matches, which fails past SQLite's
 * variable limit ("too many SQL variables"), so a single deleteMany of a large match never succeeds there.
 * Resolves with the number of documents deleted.
 */
export async function deleteManyInBatches<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  batchSize = DELETE_BATCH,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const ids = (await model.find(filter, { _id: 1 }).limit(batchSize).lean<{ _id: unknown }[]>()).map(
      (doc) => doc._id,
    );
    if (ids.length === 0) return deleted;
    const result = await model.deleteMany({ _id: { $in: ids } });
    deleted += result.deletedCount;
    if (ids.length < batchSize) return deleted;
  }
}
