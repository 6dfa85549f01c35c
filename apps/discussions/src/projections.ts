import { isDuplicateKeyError } from '@gl/service-kit';
import type { NotesDeps } from './notes.service';

/** The copy of the boards service's milestones that notes and issues show (users: users.projection.ts). */
export function createDiscussionsProjections(deps: Pick<NotesDeps, 'models'>) {
  const { models } = deps;
  return {
    /**
     * `milestone.opened`: the title a new milestone had. A copy already defined by `milestone.defined`
     * (milestone-copies.ts: it has a revision) is newer and keeps its title.
     */
    async recordMilestone(id: number, iid: number | null, title: string) {
      try {
        await models.milestones.updateOne(
          { _id: id, revision: null },
          { $set: { iid, title } },
          { upsert: true },
        );
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
    },
  };
}
