import { ACTIVITY_TARGET_TYPES, type ActivityEventsQuery } from '@gl/contracts';
import type { ActivityDoc } from './events.models';

const DAY_MS = 86_400_000;

/** The event filters of a list request, as values every reader (in memory or by index) applies alike. */
export interface ActivityCriteria {
  action?: string;
  targetType?: string;
  /** created_at before this instant (exclusive). */
  createdBefore?: Date;
  /** created_at at or after this instant. */
  createdFrom?: Date;
}

const isDay = (value: string): boolean => value.length === 10;

/**
 * EventsFinder for a day: before → created_at before the start of that day; after → created_at after the
 * end of that day (GitLab's boundaries, undocumented there: gitlab-org/gitlab#30998). For a date-time, the
 * half-open range [after, before): at or after `after`, strictly before `before`.
 */
export function activityCriteria(query: ActivityEventsQuery): ActivityCriteria {
  const criteria: ActivityCriteria = {};
  if (query.action) criteria.action = query.action;
  if (query.target_type) criteria.targetType = ACTIVITY_TARGET_TYPES[query.target_type];
  if (query.before) {
    criteria.createdBefore = new Date(isDay(query.before) ? `${query.before}T00:00:00.000Z` : query.before);
  }
  if (query.after) {
    criteria.createdFrom = isDay(query.after)
      ? new Date(new Date(`${query.after}T00:00:00.000Z`).getTime() + DAY_MS)
      : new Date(query.after);
  }
  return criteria;
}

/** A check on one activity event; null lists every event. */
export type ActivityCheck = ((activity: ActivityDoc) => boolean) | null;

/** EventsFinder's filters (the criteria above) as one check on an event; null without any. */
export function activityFilter(query: ActivityEventsQuery): ActivityCheck {
  const { action, targetType, createdBefore, createdFrom } = activityCriteria(query);
  const checks: ((activity: ActivityDoc) => boolean)[] = [];
  if (action) checks.push((a) => a.action === action);
  if (targetType) checks.push((a) => a.targetType === targetType);
  if (createdBefore) checks.push((a) => a.createdAt.getTime() < createdBefore.getTime());
  if (createdFrom) checks.push((a) => a.createdAt.getTime() >= createdFrom.getTime());
  if (checks.length === 0) return null;
  return (a) => checks.every((check) => check(a));
}

/** Both checks (either may be absent). */
export function both(a: ActivityCheck, b: ActivityCheck): ActivityCheck {
  if (!a) return b;
  if (!b) return a;
  return (activity) => a(activity) && b(activity);
}
