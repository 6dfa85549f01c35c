import { z } from 'zod';
import {
  booleanParam,
  coerceInteger,
  dateOrDateTimeParam,
  iidsListParam,
  integerParam,
  isoDate,
  isoTimestamp,
  positiveIdParam,
  recordIdParam,
  stringListParam,
} from '../primitives';
import { paginationQuery } from '../pagination';
import { groupSummary, userSummary } from '../shared';

/** GroupLabel entity (lib/api/entities/group_label.rb, without issue counters of other services). */
export const labelEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  description_html: z.string(),
  text_color: z.string(),
  color: z.string(),
  subscribed: z.boolean(),
  priority: z.number().int().nullable(),
  is_project_label: z.boolean(),
  archived: z.boolean(),
});
export type LabelEntity = z.infer<typeof labelEntity>;

/** LabelBasic as embedded in boards and lists. */
export const labelBasicEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  color: z.string(),
  description: z.string().nullable(),
});

export const milestoneEntity = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  group_id: z.number().int(),
  title: z.string(),
  description: z.string(),
  state: z.enum(['active', 'closed']),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  due_date: z.string().nullable(),
  start_date: z.string().nullable(),
  web_url: z.string(),
});
export type MilestoneEntity = z.infer<typeof milestoneEntity>;

export const milestoneShortEntity = z.object({ id: z.number().int(), title: z.string() });

/**
 * SpecialBoardFilter (lib/api/entities/special_board_filter.rb): a board scoped to a predefined milestone
 * (Milestone::Predefined — None 0, Any -1, Upcoming -2, Started -3) shows only its title.
 */
export const specialBoardFilterEntity = z.object({ title: z.string() });

/** Iteration state as the entity shows it (`state_enum`): 1 upcoming, 2 current, 3 closed. */
export const ITERATION_STATES = { upcoming: 1, current: 2, closed: 3 } as const;

/** Iteration entity (ee/lib/api/entities/iteration.rb), a group iteration. */
export const iterationEntity = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  sequence: z.number().int(),
  group_id: z.number().int(),
  title: z.string().nullable(),
  description: z.string().nullable(),
  state: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  start_date: z.string(),
  due_date: z.string(),
  web_url: z.string(),
});
export type IterationEntity = z.infer<typeof iterationEntity>;

export const boardListEntity = z.object({
  id: z.number().int(),
  label: labelBasicEntity.nullable(),
  position: z.number().int(),
  milestone: milestoneEntity.optional(),
  /** ee/lib/ee/api/entities/list.rb: `expose :iteration, using: ::API::Entities::Iteration` (iteration lists). */
  iteration: iterationEntity.optional(),
  assignee: userSummary.optional(),
});
export type BoardListEntity = z.infer<typeof boardListEntity>;

export const boardEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  hide_backlog_list: z.boolean(),
  hide_closed_list: z.boolean(),
  project: z.null(),
  lists: z.array(boardListEntity),
  group: groupSummary,
  milestone: z.union([milestoneEntity, milestoneShortEntity, specialBoardFilterEntity]).nullable(),
  assignee: userSummary.nullable(),
  labels: z.array(labelBasicEntity),
  weight: z.number().int().nullable(),
});
export type BoardEntity = z.infer<typeof boardEntity>;

// ---- parameters ----

export const listLabelsQuery = paginationQuery.extend({
  search: z.string().optional(),
  /** Labels of the ancestor groups too; GitLab's default is true. */
  include_ancestor_groups: booleanParam.optional(),
});

export const createLabelBody = z.object({
  name: z.string().min(1),
  color: z.string().min(1),
  description: z.string().optional(),
  priority: integerParam.optional(),
});

/** `label_id` may be the id or the name of the label. */
export const updateLabelBody = z.object({
  label_id: z.string(),
  new_name: z.string().optional(),
  color: z.string().optional(),
  description: z.string().optional(),
  priority: integerParam.optional(),
});

/**
 * The deprecated PUT /groups/:id/labels (lib/api/group_labels.rb, deprecated in 12.4, which python-gitlab's
 * GroupLabel#save still uses): the label by `label_id` or by its current `name`, exactly one of them.
 */
export const updateLabelByNameBody = updateLabelBody.omit({ label_id: true }).extend({
  label_id: integerParam.optional(),
  name: z.string().optional(),
});

export const milestoneState = z.enum(['active', 'closed']);

export const listMilestonesQuery = paginationQuery.extend({
  state: milestoneState.optional(),
  title: z.string().optional(),
  search: z.string().optional(),
  iids: iidsListParam.optional(),
});

export const createMilestoneBody = z.object({
  title: z.string().min(1),
  description: z.string().optional(),
  // Dates or ISO date-times; the date is kept (lib/api/milestone_responses.rb: a date column).
  due_date: dateOrDateTimeParam.optional(),
  start_date: dateOrDateTimeParam.optional(),
});

export const updateMilestoneBody = z.object({
  milestone_id: recordIdParam,
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  due_date: dateOrDateTimeParam.optional(),
  start_date: dateOrDateTimeParam.optional(),
  state_event: z.enum(['close', 'activate']).optional(),
});

export const createBoardBody = z.object({ name: z.string().min(1) });

/** Grape's Integer with a blank value (`""` or JSON null): nil, which clears a board's scope. */
const clearableIdParam = z.preprocess(
  (value) => (value === '' ? null : coerceInteger(value)),
  z.number().int().nullable(),
);

export const updateBoardBody = z.object({
  board_id: recordIdParam,
  name: z.string().optional(),
  hide_backlog_list: booleanParam.optional(),
  hide_closed_list: booleanParam.optional(),
  /** A user id; an unknown one (or null) clears the scope (EE Boards::BaseService#filter_assignee). */
  assignee_id: clearableIdParam.optional(),
  /**
   * A milestone of the group or its ancestors, or a predefined one (0 None, -1 Any, -2 Upcoming,
   * -3 Started); null clears; any other id leaves the scope as it was (filter_milestone).
   */
  milestone_id: clearableIdParam.optional(),
  labels: stringListParam.optional(),
  weight: z
    .preprocess(
      (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
      z.number().int().min(0).max(9),
    )
    .optional(),
});

export const createListBody = z.object({
  board_id: recordIdParam,
  label_id: integerParam.optional(),
  milestone_id: integerParam.optional(),
  iteration_id: integerParam.optional(),
  assignee_id: integerParam.optional(),
});

export const moveListBody = z.object({
  board_id: recordIdParam,
  list_id: recordIdParam,
  position: integerParam,
});

// ---- iterations ----

/** Grape's DateTime: anything DateTime.parse reads (ISO 8601 and dates); else "<name> is invalid". */
const dateTimeParam = z.preprocess((value) => {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time);
}, z.date());

/** `in` (Array[String], values title and cadence_title): `in[]=title`, or one value, or `title,cadence_title`. */
const iterationSearchFields = z.preprocess(
  (value) => (typeof value === 'string' ? value.split(',').map((s) => s.trim()) : value),
  z
    .array(z.string())
    .refine((fields) => fields.length > 0 && fields.every((f) => f === 'title' || f === 'cadence_title'), {
      message: 'in does not have a valid value',
    }),
);

/** GET /groups/:id/iterations (ee/lib/api/iterations.rb `list_params`). */
export const listIterationsQuery = paginationQuery.extend({
  /** `started` is the deprecated name of `current`; `opened` is upcoming and current. Default all. */
  state: z.enum(['opened', 'upcoming', 'started', 'current', 'closed', 'all']).optional(),
  search: z.string().optional(),
  in: iterationSearchFields.optional(),
  include_ancestors: booleanParam.optional(),
  include_descendants: booleanParam.optional(),
  updated_before: dateTimeParam.optional(),
  updated_after: dateTimeParam.optional(),
});

/** A YYYY-MM-DD that is a day of the calendar (Grape's Date refuses 2026-02-30: "<name> is invalid"). */
const calendarDate = (name: string) =>
  isoDate.refine((value) => {
    const day = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value;
  }, `${name} is invalid`);

/** POST /groups/:id/iterations: ours (GitLab creates iterations through GraphQL `iterationCreate`). */
export const createIterationBody = z.object({
  title: z.string().optional(),
  description: z.string().optional(),
  start_date: calendarDate('start_date'),
  due_date: calendarDate('due_date'),
  iteration_cadence_id: positiveIdParam.optional(),
});
