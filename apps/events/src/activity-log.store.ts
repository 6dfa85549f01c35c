import { createHash } from 'node:crypto';
import type { FilterQuery, Model } from 'mongoose';
import { boundedTotal, createBeyondLimitMemo, deleteManyInBatches, listKey } from '@gl/service-kit';
import { readersOf, reachOf } from './activity-reach';
import type { ActivityDoc } from './events.models';
import { activityTarget } from './events.visibility';

export type Order = 'asc' | 'desc';

/** GitLab (Kaminari MAX_COUNT_LIMIT): past 10,000 matches the total is not counted and not sent. */
export const COUNT_LIMIT = 10_000;

export interface PageWindow {
  skip: number;
  take: number;
}

export interface ActivityPage {
  items: ActivityDoc[];
  /** Null when more than COUNT_LIMIT events match. */
  total: number | null;
  hasNext: boolean;
}

/** Events deleted per statement when a deleted author's events are removed: short, bounded statements. */
export const REMOVAL_BATCH = 500;

/** The event as stored: with who reads it (activity-reach.ts), from its audience. */
export function withReach(activity: ActivityDoc): ActivityDoc {
  const target = activityTarget(activity);
  const reach = reachOf(target);
  return { ...activity, reach, readers: readersOf(target, reach) };
}

/**
 * The activity log (`activities`, one document per event), the only store of activity: every list is one
 * query along an index (events.models.ts) in id order, GitLab's order, with its filters and who may read
 * each event in the query itself (activity-access.ts), so a page reads its own events and a deep page skips
 * index entries. The total is GitLab's bounded count (up to 10,000, else none) of the same query, left out
 * when the page shows it, and remembered for a minute once a list is past the limit.
 */
export function createActivityLogStore(activities: Model<ActivityDoc>) {
  const pastCountLimit = createBeyondLimitMemo();
  /** A list's memo key: its filter, hashed (an author's list names every project its caller reads). */
  const keyOf = (filter: FilterQuery<ActivityDoc>) =>
    createHash('sha1').update(listKey(activities, filter)).digest('base64');
  const sortOf = (order: Order) => ({ _id: order === 'desc' ? -1 : 1 }) as const;

  return {
    /**
     * Inserts activity events (with their reach); one an earlier delivery already recorded (same
     * `sourceEventId`) stays as it is. Resolves each event's stored id by its domain event id, and the ids
     * this call inserted.
     */
    async record(list: ActivityDoc[]): Promise<{ ids: Map<string, number>; inserted: number[] }> {
      const ids = new Map(list.map((activity) => [activity.sourceEventId, activity._id]));
      if (list.length === 0) return { ids, inserted: [] };
      try {
        await activities.insertMany(list.map(withReach), { ordered: false, lean: true });
        return { ids, inserted: list.map((activity) => activity._id) };
      } catch (err) {
        // Unordered: everything but the duplicates went in; any other failure leaves an event missing.
        const stored = await activities
          .find({ sourceEventId: { $in: [...ids.keys()] } })
          .select({ _id: 1, sourceEventId: 1 })
          .lean<Pick<ActivityDoc, '_id' | 'sourceEventId'>[]>();
        if (stored.length < ids.size) throw err;
        const found = new Map(stored.map((activity) => [activity.sourceEventId, activity._id]));
        const inserted = list.filter((a) => found.get(a.sourceEventId) === a._id).map((a) => a._id);
        return { ids: found, inserted };
      }
    },

    /** Deletes events this process inserted under ids it can no longer vouch for (activity-sequence.ts). */
    async removeIds(ids: number[]): Promise<void> {
      for (let i = 0; i < ids.length; i += REMOVAL_BATCH)
        await activities.deleteMany({ _id: { $in: ids.slice(i, i + REMOVAL_BATCH) } });
    },

    /**
     * One page of the events matching `filter` in id order, whether a next page exists, and the bounded
     * total: not counted when the page shows where the list ends.
     */
    async page(filter: FilterQuery<ActivityDoc>, order: Order, window: PageWindow): Promise<ActivityPage> {
      const found = await activities
        .find(filter)
        .sort(sortOf(order))
        .skip(window.skip)
        .limit(window.take + 1)
        .lean<ActivityDoc[]>();
      const items = found.slice(0, window.take);
      const hasNext = found.length > window.take;
      const total = await boundedTotal({ skip: window.skip, shown: items.length, hasNext }, COUNT_LIMIT, () =>
        pastCountLimit.upTo(keyOf(filter), COUNT_LIMIT, () =>
          activities.countDocuments(filter, { limit: COUNT_LIMIT + 1 }).exec(),
        ),
      );
      return { items, total, hasNext };
    },

    /** Live readers: up to `max` events of `filter` with ids in (after, upTo], oldest first. */
    async readAfter(
      filter: FilterQuery<ActivityDoc>,
      after: number,
      upTo: number,
      max: number,
    ): Promise<ActivityDoc[]> {
      if (upTo <= after) return [];
      return activities
        .find({ ...filter, _id: { $gt: after, $lte: upTo } })
        .sort({ _id: 1 })
        .limit(max)
        .lean<ActivityDoc[]>();
    },

    /** The id before the `depth` newest events of `filter` up to `upTo` (0 when there are fewer). */
    async idBefore(filter: FilterQuery<ActivityDoc>, upTo: number, depth: number): Promise<number> {
      const [oldest] = await activities
        .find({ ...filter, _id: { $lte: upTo } })
        .sort({ _id: -1 })
        .skip(depth)
        .limit(1)
        .select({ _id: 1 })
        .lean<Pick<ActivityDoc, '_id'>[]>();
      return oldest?._id ?? 0;
    },

    /** Deletes a deleted author's events, REMOVAL_BATCH at a time; returns how many went. */
    async removeAuthor(authorId: number): Promise<number> {
      return deleteManyInBatches(activities, { authorId }, REMOVAL_BATCH);
    },

    /** Retention: deletes the events created before the cutoff (in batches); returns how many went. */
    async expire(cutoff: Date): Promise<number> {
      return deleteManyInBatches(activities, { createdAt: { $lt: cutoff } });
    },
  };
}

export type ActivityLogStore = ReturnType<typeof createActivityLogStore>;
