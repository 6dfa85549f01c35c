import type { Collection, Connection } from 'mongoose';
import { dropIndexesIfPresent, type Migration } from '@gl/service-kit';
import { withReach } from '../activity-log.store';
import { EVERYONE } from '../activity-reach';
import type { ActivityDoc } from '../events.models';

/** Events read, classified and written per round. */
const BATCH = 1_000;

/** The collections of the bucket timelines this service kept beside the log until this step. */
export const TIMELINE_COLLECTIONS = ['timeline_heads', 'timeline_buckets'];

/** Indexes the lists read before they all read the log along the wider ones of events.models.ts. */
export const REPLACED_INDEXES = [
  'projectId_1_targetType_1__id_-1',
  'projectId_1_action_1__id_-1',
  'authorId_1_projectId_1__id_1',
];

/** Where a batch waits while it is replaced, so that a run cut short between two writes loses nothing. */
export const CLASSIFYING = 'activities_classifying';

/** Inserts documents; those already there (same `_id`) stay as they are. */
async function insertMissing(collection: Collection<ActivityDoc>, docs: ActivityDoc[]): Promise<void> {
  try {
    await collection.insertMany(docs, { ordered: false });
  } catch (err) {
    // Unordered: all but the duplicates went in, unless something else failed.
    const ids = docs.map((doc) => doc._id);
    if ((await collection.countDocuments({ _id: { $in: ids } })) < ids.length) throw err;
  }
}

/**
 * Gives the stored events that not every reader class reads their `reach` and `readers` (activity-reach.ts;
 * without them an event is read by all), in id order, a batch at a time. A batch is replaced (kept aside,
 * deleted, inserted classified) rather than updated: the local database updates a document at a time
 * (about 700 a second at 1,000,000 events on a busy 2-core machine; replaced, about 1,600). What a run cut
 * short left aside is put back first (whatever of it is not in the log any more), and events that have
 * their reach are passed over, so a second run goes on.
 */
async function classifyEvents(connection: Connection): Promise<number> {
  const activities = connection.collection<ActivityDoc>('activities');
  const aside = connection.collection<ActivityDoc>(CLASSIFYING);
  const collections = await connection.db!.listCollections({ name: CLASSIFYING }).toArray();
  if (collections.length > 0) {
    const left = await aside.find({}).toArray();
    if (left.length > 0) await insertMissing(activities, left);
    await aside.deleteMany({});
  }
  let classified = 0;
  // Ids start at 1: a range on `_id` from 0 is read along its index.
  let after = 0;
  for (;;) {
    const batch = await activities
      .find({ _id: { $gt: after } })
      .sort({ _id: 1 })
      .limit(BATCH)
      .toArray();
    if (batch.length === 0) break;
    after = batch.at(-1)!._id;
    // Without reach an event is read by every class: only the others are written.
    const todo = batch
      .filter((doc) => typeof doc.reach !== 'number')
      .map(withReach)
      .filter((doc) => doc.reach !== EVERYONE || doc.readers !== null);
    if (todo.length === 0) continue;
    const ids = todo.map((doc) => doc._id);
    await aside.insertMany(todo);
    await activities.deleteMany({ _id: { $in: ids } });
    await insertMissing(activities, todo);
    await aside.deleteMany({ _id: { $in: ids } });
    classified += todo.length;
  }
  if (classified > 0 || collections.length > 0) await aside.drop();
  return classified;
}

/**
 * One store of activity: the lists read the `activities` log alone (by index, with who reads each event in
 * the query), so the bucket timelines go. Classifies the stored events for the lists' queries, drops the
 * timeline collections and the list indexes the wider ones replace (mongoose builds those at start).
 * Idempotent: each part checks what is there first.
 */
export function oneActivityLogMigration(version: number): Migration {
  return {
    version,
    name: 'activities: the only store of activity (reach and readers; timelines and old list indexes dropped)',
    async up(connection, logger) {
      const started = Date.now();
      // Dropped first: every event is rewritten below, and each index is written with it.
      const present = new Set(
        (await connection.db!.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name),
      );
      for (const name of TIMELINE_COLLECTIONS) {
        if (present.has(name)) await connection.db!.dropCollection(name);
      }
      const dropped = await dropIndexesIfPresent(connection.collection('activities'), REPLACED_INDEXES);
      logger.info(
        { dropped, ms: Date.now() - started },
        'activities: timelines and replaced indexes dropped',
      );
      const classified = await classifyEvents(connection);
      logger.info({ classified, ms: Date.now() - started }, 'activities: events classified for the lists');
    },
  };
}
