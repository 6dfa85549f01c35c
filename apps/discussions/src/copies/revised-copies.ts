import type { Model } from 'mongoose';
import { isDuplicateKeyError } from '@gl/service-kit';

/**
 * Writes the copy of a definition the boards service published at `revision`, unless the copy is already
 * at that revision or a newer one (events of one definition may arrive out of order or again). A copy
 * written before revisions existed counts as older than any. The filter misses a newer copy; the upsert
 * then collides with its `_id`, and that duplicate key means "leave it".
 */
export async function upsertNewerRevision<T>(
  model: Model<T>,
  id: number,
  fields: Record<string, unknown> & { revision: number },
): Promise<void> {
  try {
    await model.updateOne(
      { _id: id, $or: [{ revision: null }, { revision: { $lt: fields.revision } }] },
      { $set: fields },
      { upsert: true },
    );
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
}
