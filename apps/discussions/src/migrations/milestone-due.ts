import { reportingMigration, type Migration } from '@gl/service-kit';
import { createMilestoneCopies } from '../copies/milestone-copies';
import { compiledDiscussionsModels } from './compiled-models';

/**
 * `milestoneDue` (the milestone's due date, for the milestone_due and priority orders) on the issues and
 * merge requests written before it existed: after the declared indexes (the list index ordered on it),
 * every copied milestone with a due date gives it to its items in batches (milestone-copies.ts spreadDue). Items without a milestone, or of one without a date, need
 * nothing: an absent field is null to every query. Copies that learn their dates later (the boards service
 * publishes each milestone as `milestone.defined`) spread them when the event is applied. Idempotent:
 * items already at the date are not read again.
 */
export function milestoneDueMigration(version: number): Migration {
  return reportingMigration(
    version,
    'noteables: milestoneDue (the milestone due date) for the milestone_due and priority orders',
    'noteables: milestoneDue filled',
    async (connection) => {
      await connection.models.Noteable?.init();
      const models = compiledDiscussionsModels(connection, 'noteables', 'milestones', 'projects', 'groups');
      const copies = createMilestoneCopies(models);
      const dated = await models.milestones
        .find({ dueDate: { $gte: '' } })
        .select({ dueDate: 1, groupId: 1 })
        .lean<{ _id: number; dueDate: string; groupId: number }[]>();
      let filled = 0;
      for (const m of dated)
        filled += (await copies.spreadDue(m._id, { groupId: m.groupId }, m.dueDate)).changed;
      return { milestones: dated.length, filled };
    },
  );
}
