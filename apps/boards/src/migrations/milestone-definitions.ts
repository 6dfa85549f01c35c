import { reportingMigration, requestOrigin, type Migration } from '@gl/service-kit';
import type { MilestoneDoc } from '../boards.models';
import { SERVICE_PRODUCER, milestoneDefinitionEvent } from '../milestones/milestone-writes';
import { publishFirstRevisions } from './first-revisions';

/**
 * Publishes `gl.boards.milestone.defined` (revision 1) for every milestone written before the event
 * existed, so the copies other services keep (discussions: Upcoming, Started, milestone_due) learn their
 * state and dates (first-revisions.ts: resumable, each event on its milestone's write).
 */
export function milestoneDefinitionsMigration(version: number): Migration {
  return reportingMigration(
    version,
    'milestones: publish each one as gl.boards.milestone.defined (revision 1)',
    'milestones: definitions published',
    async (connection) => {
      const origin = requestOrigin(SERVICE_PRODUCER, null);
      const published = await publishFirstRevisions(connection.collection('milestones'), (doc) => {
        const milestone = doc as unknown as MilestoneDoc;
        return milestoneDefinitionEvent(origin, null, milestone, { groupId: milestone.groupId });
      });
      return { published };
    },
  );
}
