import { isDuplicateKeyError } from '@gl/service-kit';
import type { NotesDeps } from './notes.service';

/** The copies of other services' users and milestones that notes and issues show. */
export function createDiscussionsProjections(deps: Pick<NotesDeps, 'models'>) {
  const { models } = deps;
  return {
    /** Keeps the newest copy of a user: an identity event older than the stored one changes nothing. */
    async recordUser(user: { userId: number; username: string; name: string }, seenAt: string) {
      const set = { username: user.username, name: user.name, seenAt };
      const newer = await models.users.updateOne(
        { _id: user.userId, seenAt: { $lte: seenAt } },
        { $set: set },
      );
      if (newer.matchedCount > 0) return;
      try {
        await models.users.create({ _id: user.userId, ...set });
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err; // already there, with a newer copy
      }
    },
    async recordMilestone(id: number, iid: number | null, title: string) {
      await models.milestones.updateOne({ _id: id }, { $set: { iid, title } }, { upsert: true });
    },
  };
}
