import type { NotesDeps } from './notes.service';

/** The copy of the boards service's milestones that notes and issues show (users: users.projection.ts). */
export function createDiscussionsProjections(deps: Pick<NotesDeps, 'models'>) {
  const { models } = deps;
  return {
    async recordMilestone(id: number, iid: number | null, title: string) {
      await models.milestones.updateOne({ _id: id }, { $set: { iid, title } }, { upsert: true });
    },
  };
}
