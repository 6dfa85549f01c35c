import type { FilterQuery, Model, UpdateQuery } from 'mongoose';
import { insertUnique, isDuplicateKeyError } from '@gl/service-kit';

/**
 * A title or name is claimed by a unique index (labels and milestones per group or project), so a write
 * that loses the race to another of the same title learns it from the index: 'taken'.
 */
export async function insertOrTaken<T>(model: Model<T>, doc: T): Promise<T | 'taken'> {
  return (await insertUnique(model, doc as Partial<T>)) ? doc : 'taken';
}

/** The document after the update, null when the filter matches none, 'taken' as for insertOrTaken. */
export async function updateOrTaken<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  update: UpdateQuery<T>,
): Promise<T | null | 'taken'> {
  try {
    return await model.findOneAndUpdate(filter, update, { new: true }).lean<T>();
  } catch (err) {
    if (isDuplicateKeyError(err)) return 'taken';
    throw err;
  }
}
