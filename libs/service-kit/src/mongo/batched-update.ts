import type { Model } from 'mongoose';

/**
 * Most updates sent in one command: one command per thousand documents costs a round trip per thousand
 * and keeps each command's lock on the local database short (FerretDB applies a command's statements one by
 * one under its collection lock, tools/ferretdb/patches/0005). Upstream FerretDB v1 held a SQLite
 * connection per statement until the command ended and hung at 100; patch 0006 closes each as it ends.
 */
export const UPDATES_PER_COMMAND = 1_000;

/**
 * Sends updates (upserts included) in commands of at most UPDATES_PER_COMMAND, unordered within each;
 * resolves with how many documents the filters matched.
 */
export async function bulkUpdate<T>(
  model: Model<T>,
  updates: Parameters<Model<T>['bulkWrite']>[0],
): Promise<number> {
  let matched = 0;
  for (let i = 0; i < updates.length; i += UPDATES_PER_COMMAND) {
    const result = await model.bulkWrite(updates.slice(i, i + UPDATES_PER_COMMAND), { ordered: false });
    matched += result.matchedCount;
  }
  return matched;
}
