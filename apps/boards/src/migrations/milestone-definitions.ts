import type { mongo } from 'mongoose';
import type { Migration } from '@gl/service-kit';
import { drainBatches, pushEvents, requestOrigin } from '@gl/service-kit';
import type { MilestoneDoc } from '../boards.models';
import { SERVICE_PRODUCER, milestoneDefinitionEvent } from '../milestones/milestone-writes';

/** Milestones read, and published, per batch. */
const BATCH = 500;

/**
 * Publishes `gl.boards.milestone.defined` (revision 1) for every milestone written before the event
 * existed, so the copies other services keep (discussions: Upcoming, Started, milestone_due) learn their
 * state and dates. Each event rides on its milestone's own write (the outbox relays it once the service
 * runs); a milestone already at a revision is never read again, so a step killed half-way resumes.
 */
export function milestoneDefinitionsMigration(version: number): Migration {
  return {
    version,
    name: 'milestones: publish each one as gl.boards.milestone.defined (revision 1)',
    async up(connection, logger) {
      const started = Date.now();
      const milestones = connection.collection('milestones');
      const origin = requestOrigin(SERVICE_PRODUCER, null);
      const published = await drainBatches(
        milestones,
        { revision: null },
        { batchSize: BATCH },
        async (batch) => {
          await milestones.bulkWrite(
            batch.map((doc): mongo.AnyBulkWriteOperation<mongo.Document> => {
              const milestone = { ...(doc as unknown as MilestoneDoc), revision: 1 };
              const event = milestoneDefinitionEvent(origin, null, milestone, { groupId: milestone.groupId });
              return {
                updateOne: {
                  filter: { _id: doc._id, revision: null },
                  update: pushEvents({ $set: { revision: 1 } }, [event]) as mongo.Document,
                },
              };
            }),
            { ordered: false },
          );
        },
      );
      logger.info({ ms: Date.now() - started, published }, 'milestones: definitions published');
    },
  };
}
