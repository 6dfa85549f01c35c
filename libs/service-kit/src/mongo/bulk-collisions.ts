import { isDuplicateKeyError } from './connection';

/**
 * How many writes of an unordered bulk write failed on a duplicate key, when they are the only failures;
 * null for any other failure. Mongoose copies the driver's write errors into plain objects (the code is then
 * under `err`).
 */
export function duplicatesOnly(err: unknown): number | null {
  const writeErrors = (err as { writeErrors?: unknown } | null)?.writeErrors;
  if (writeErrors === undefined || writeErrors === null) return isDuplicateKeyError(err) ? 1 : null;
  const errors = [writeErrors].flat() as { code?: unknown; err?: unknown }[];
  const duplicate = (e: { code?: unknown; err?: unknown }) =>
    isDuplicateKeyError(e) || isDuplicateKeyError(e.err);
  return errors.length > 0 && errors.every(duplicate) ? errors.length : null;
}

/**
 * `all`, a bulk write of `items` that may collide on unique keys; after a collision that was its only
 * failure, every item is written again on its own with `each`, whose collisions are then only its own.
 * FerretDB stops an unordered bulk update (upserts) at its first failure and misreports which write failed,
 * so the writes after a collision would otherwise be lost (its unordered inserts do go on). Resolves how many of the items collided in the end
 * (0 when `all` went through; an item `all` wrote before stopping counts as collided when written again).
 */
export async function eachAfterCollision<T>(
  items: readonly T[],
  all: () => Promise<unknown>,
  each: (item: T) => Promise<unknown>,
): Promise<number> {
  try {
    await all();
    return 0;
  } catch (err) {
    if (duplicatesOnly(err) === null) throw err;
  }
  let collided = 0;
  for (const item of items) {
    try {
      await each(item);
    } catch (err) {
      if (duplicatesOnly(err) === null) throw err;
      collided += 1;
    }
  }
  return collided;
}
