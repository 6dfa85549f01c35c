import type { Model } from 'mongoose';

/**
 * Most updates sent in one command. FerretDB v1 (our SQLite build) keeps a database connection for each
 * update statement of a command that changes an existing document until the command ends, out of 100 per
 * database: a command of 100 such updates waits forever for a 101st connection. Smaller commands cost the
 * same per document. Every multi-document update (the outbox relay's, the activity log's) goes through
 * here; a fix in FerretDB itself would make the cap unnecessary.
 */
export const UPDATES_PER_COMMAND = 50;

/** Sends updates (upserts included) in commands of at most UPDATES_PER_COMMAND, unordered within each. */
export async function bulkUpdate<T>(
  model: Model<T>,
  updates: Parameters<Model<T>['bulkWrite']>[0],
): Promise<void> {
  for (let i = 0; i < updates.length; i += UPDATES_PER_COMMAND) {
    await model.bulkWrite(updates.slice(i, i + UPDATES_PER_COMMAND), { ordered: false });
  }
}
