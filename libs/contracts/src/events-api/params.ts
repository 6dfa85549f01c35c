import { z } from 'zod';
import { paginationQuery } from '../pagination';

/** Stored actions, the values of the `action` filter (GitLab's Event.actions). */
export const ACTIVITY_ACTIONS = [
  'created',
  'updated',
  'closed',
  'reopened',
  'pushed',
  'commented',
  'merged',
  'joined',
  'left',
  'destroyed',
  'expired',
  'approved',
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** `target_type` filter values and the class name each one matches exactly (`note` matches only "Note"). */
export const ACTIVITY_TARGET_TYPES = {
  issue: 'Issue',
  milestone: 'Milestone',
  merge_request: 'MergeRequest',
  note: 'Note',
  project: 'Project',
  snippet: 'Snippet',
  user: 'User',
} as const;
export type ActivityTargetTypeFilter = keyof typeof ACTIVITY_TARGET_TYPES;

const targetTypeValues = Object.keys(ACTIVITY_TARGET_TYPES) as [
  ActivityTargetTypeFilter,
  ...ActivityTargetTypeFilter[],
];

/**
 * Grape `Date`: `YYYY-MM-DD` (a real calendar day), else "<param> is invalid". Beyond GitLab, an ISO 8601
 * date-time with its offset (`2026-11-28T10:00:00Z`, `…+01:00`) for pollers that resume where they
 * stopped: a date keeps GitLab's day rule, a date-time bounds the half-open range [after, before)
 * (apps/events/src/activity-criteria.ts), so back-to-back windows never miss nor repeat an event.
 */
export const activityDateParam = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** Filters shared by the three activity-event endpoints, in Grape's declaration order. */
export const activityEventsQuery = paginationQuery.extend({
  action: z.enum(ACTIVITY_ACTIONS).optional(),
  target_type: z.enum(targetTypeValues).optional(),
  before: activityDateParam.optional(),
  after: activityDateParam.optional(),
  sort: z.enum(['asc', 'desc']).optional(),
});
export type ActivityEventsQuery = z.infer<typeof activityEventsQuery>;

export const currentUserEventsQuery = activityEventsQuery.extend({ scope: z.string().optional() });
export type CurrentUserEventsQuery = z.infer<typeof currentUserEventsQuery>;

export const userEventsQuery = activityEventsQuery.extend({ user_id: z.string().min(1) });

export const projectEventsQuery = activityEventsQuery.extend({ id: z.string().min(1) });

/**
 * An event id as a stream resumes from it, by the rule the Last-Event-ID header follows too: digits only
 * and a safe integer. Anything else stays a string, which the number refuses ("last_event_id is invalid");
 * a plain coercion let `1e3`, `0x10` and ` 5` through as numbers.
 */
const eventIdParam = z.preprocess(
  (raw) => (typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : raw),
  z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
);

/**
 * The live activity streams (`…/events/stream`, not GitLab's): the lists' event filters, and where to resume
 * for clients that cannot send the `Last-Event-ID` header (the header wins when both are given).
 */
export const activityStreamQuery = z.object({
  action: z.enum(ACTIVITY_ACTIONS).optional(),
  target_type: z.enum(targetTypeValues).optional(),
  last_event_id: eventIdParam.optional(),
});
export type ActivityStreamQuery = z.infer<typeof activityStreamQuery>;

/** /events/stream: `scope=all` follows the events of every project the caller is a member of, as the list. */
export const currentUserActivityStreamQuery = activityStreamQuery.extend({ scope: z.string().optional() });

export const userActivityStreamQuery = activityStreamQuery.extend({ user_id: z.string().min(1) });

export const projectActivityStreamQuery = activityStreamQuery.extend({ id: z.string().min(1) });
