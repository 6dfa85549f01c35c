import { projectIdentity } from '@gl/service-kit';
import type { NotesDeps } from './notes.service';

/** The copies of other services' users and milestones that notes and issues show. */
export function createDiscussionsProjections(deps: Pick<NotesDeps, 'models'>) {
  const { models } = deps;
  return {
    /** Keeps the newest copy of a user: an identity event older than the stored one changes nothing. */
    async recordUser(user: { userId: number; username: string; name: string }, occurredAt: string) {
      await projectIdentity(
        models.users,
        user.userId,
        { occurredAt },
        { username: user.username, name: user.name },
      );
    },
    async recordMilestone(id: number, iid: number | null, title: string) {
      await models.milestones.updateOne({ _id: id }, { $set: { iid, title } }, { upsert: true });
    },
  };
}
