import type { Model } from 'mongoose';
import { isDuplicateKeyError } from './connection';

/**
 * Inserts a document; false when a unique index refuses it. The database's duplicate-key error (matched
 * by isDuplicateKeyError, which also knows FerretDB's form) is how racing claims are settled.
 */
export async function insertUnique<T>(model: Model<T>, doc: Partial<T>): Promise<boolean> {
  try {
    await model.create(doc);
    return true;
  } catch (err) {
    if (isDuplicateKeyError(err)) return false;
    throw err;
  }
}
