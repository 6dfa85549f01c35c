import type { Model, mongo } from 'mongoose';

/**
 * Reads of the lookups every request's identity rests on (token, user, memberships) straight from the
 * driver's collection: what `.lean()` returns, the same plain documents (these schemas have no query hooks
 * and hide no field), without mongoose building, casting and wrapping a query. Each is a cache miss, a
 * user's first request in a while; mongoose was a third of the gateway's CPU per such read.
 */
export function findOneRaw<T>(model: Model<T>, filter: Record<string, unknown>): Promise<T | null> {
  return model.collection.findOne(filter as mongo.Filter<mongo.Document>) as Promise<T | null>;
}

export function findRaw<T>(
  model: Model<T>,
  filter: Record<string, unknown>,
  options: Pick<mongo.FindOptions, 'projection' | 'limit'>,
): Promise<T[]> {
  return model.collection.find(filter as mongo.Filter<mongo.Document>, options).toArray() as Promise<T[]>;
}
