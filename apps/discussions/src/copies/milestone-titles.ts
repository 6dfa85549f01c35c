import { DOMAIN_EVENT_TYPES, DURABLES, targetEventData } from '@gl/contracts';
import { eventData, isDuplicateKeyError, type Subscription } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { MilestonesChanged } from './milestone-cache';

/** The copy of the boards service's milestones that notes and issues show (users: users.projection.ts). */
export function createMilestoneTitles(
  models: Pick<DiscussionsModels, 'milestones'>,
  /** Told after a copy is written, so the caches of the copies forget it (milestone-cache.ts). */
  changed: MilestonesChanged = () => {},
) {
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
      changed([id]);
    },
  };
}

export type MilestoneTitles = ReturnType<typeof createMilestoneTitles>;

/** Group milestone titles from the boards service, for milestone system notes. */
export function createMilestonesSubscription(titles: MilestoneTitles): Subscription {
  const { milestoneOpened } = DOMAIN_EVENT_TYPES.boards;
  return {
    durable: DURABLES.discussionsMilestones,
    filterSubjects: [milestoneOpened],
    async handle(event) {
      const data = eventData(targetEventData, event);
      await titles.recordMilestone(data.targetId, data.targetIid, data.targetTitle);
    },
  };
}
