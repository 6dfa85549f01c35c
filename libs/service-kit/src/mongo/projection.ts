import type { Model } from 'mongoose';
import { isDuplicateKeyError } from './connection';

/**
 * Upserts a projection record unless it is marked destroyed, so a late created/updated event never brings a
 * destroyed project or group back: the filter misses the destroyed record, the upsert then collides with
 * its `_id`, and that duplicate key means "destroyed, leave it".
 */
export async function upsertUnlessDestroyed<T>(
  model: Model<T>,
  id: string | number,
  set: Record<string, unknown>,
): Promise<void> {
  try {
    await model.updateOne(
      { _id: id, destroyed: { $ne: true } },
      { $set: { ...set, destroyed: false } },
      { upsert: true },
    );
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
  }
}
