import type { FilterQuery, Model } from 'mongoose';
import type { ActivityEventsQuery } from '@gl/contracts';
import { countUpTo, createBeyondLimitMemo, deleteManyInBatches } from '@gl/service-kit';
import { activityCriteria } from './activity-criteria';
import type { ActivityDoc } from './events.models';
import { COUNT_LIMIT, type Order, type PageWindow, type TimelinePage } from './timeline/timeline.store';

/**
 * The activity log (`activities`, one document per event) read by index. A filtered list of one project's
 * events (`action`, `target_type`, `before`, `after`) comes from here: walking the project's timeline and
 * checking each event read up to COUNT_LIMIT matches for X-Total on every request (10,000 issue events:
 * 520 ms a page); here the page and the count are index range reads. Unfiltered lists and lists whose
 * events are checked one by one for the caller (sensitive targets) still read the timelines.
 */
export function projectFilter(projectId: number, query: ActivityEventsQuery): FilterQuery<ActivityDoc> {
  const { action, targetType, createdBefore, createdFrom } = activityCriteria(query);
  const filter: FilterQuery<ActivityDoc> = { projectId };
  if (action) filter.action = action;
  if (targetType) filter.targetType = targetType;
  if (createdBefore || createdFrom) {
    filter.createdAt = {
      ...(createdBefore && { $lt: createdBefore }),
      ...(createdFrom && { $gte: createdFrom }),
    };
  }
  return filter;
}

/** Events deleted per statement when a deleted author's events are removed: short, bounded statements. */
export const REMOVAL_BATCH = 500;

/**
 * The activity log: recorded in batches; read one page of the log's events matching a filter, with GitLab's
 * bounded count. A filter found past the count limit is remembered for a minute (X-Total is not sent for it),
 * so the probe past 10,000 matches is not walked again at every page.
 */
export function createActivityLogStore(activities: Model<ActivityDoc>) {
  const pastCountLimit = createBeyondLimitMemo();
  return {
    /**
     * Inserts activity events; one an earlier delivery already recorded (same `sourceEventId`) stays as it
     * is. Resolves each event's stored id by its domain event id.
     */
    async record(list: ActivityDoc[]): Promise<Map<string, number>> {
      const ids = new Map(list.map((activity) => [activity.sourceEventId, activity._id]));
      if (list.length === 0) return ids;
      try {
        await activities.insertMany(list, { ordered: false, lean: true });
        return ids;
      } catch (err) {
        // Unordered: everything but the duplicates went in; any other failure leaves an event missing.
        const stored = await activities
          .find({ sourceEventId: { $in: [...ids.keys()] } })
          .select({ _id: 1, sourceEventId: 1 })
          .lean<Pick<ActivityDoc, '_id' | 'sourceEventId'>[]>();
        if (stored.length < ids.size) throw err;
        return new Map(stored.map((activity) => [activity.sourceEventId, activity._id]));
      }
    },

    /** A project's events matching the list's filters, newest (or oldest) first. */
    async projectPage(
      projectId: number,
      query: ActivityEventsQuery,
      order: Order,
      window: PageWindow,
    ): Promise<TimelinePage> {
      const filter = projectFilter(projectId, query);
      const sort = { _id: order === 'desc' ? -1 : 1 } as const;
      const [found, total] = await Promise.all([
        activities
          .find(filter)
          .sort(sort)
          .skip(window.skip)
          .limit(window.take + 1)
          .lean<ActivityDoc[]>(),
        countUpTo(activities, filter, COUNT_LIMIT, pastCountLimit),
      ]);
      return { items: found.slice(0, window.take), total, hasNext: found.length > window.take };
    },

    /** A deleted author's events still in the log: ids and projects (null: group or personal events). */
    async authorEvents(authorId: number): Promise<Pick<ActivityDoc, '_id' | 'projectId'>[]> {
      return activities
        .find({ authorId })
        .select({ _id: 1, projectId: 1 })
        .lean<Pick<ActivityDoc, '_id' | 'projectId'>[]>();
    },

    /** Deletes events by id (already read), REMOVAL_BATCH per statement; returns how many went. */
    async removeIds(ids: number[]): Promise<number> {
      let deleted = 0;
      for (let i = 0; i < ids.length; i += REMOVAL_BATCH) {
        deleted += (await activities.deleteMany({ _id: { $in: ids.slice(i, i + REMOVAL_BATCH) } }))
          .deletedCount;
      }
      return deleted;
    },

    /** Deletes whatever is left of a deleted author's events, REMOVAL_BATCH at a time; returns how many went. */
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
