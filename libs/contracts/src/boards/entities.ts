import { z } from 'zod';
import {
  booleanParam,
  integerParam,
  isoDate,
  isoTimestamp,
  paginationQuery,
  positiveIdParam,
  stringListParam,
} from '../primitives';
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

export const boardListEntity = z.object({
  id: z.number().int(),
  label: labelBasicEntity.nullable(),
  position: z.number().int(),
  milestone: milestoneEntity.optional(),
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
  milestone: z.union([milestoneEntity, milestoneShortEntity]).nullable(),
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

export const milestoneState = z.enum(['active', 'closed']);

export const listMilestonesQuery = paginationQuery.extend({
  state: milestoneState.optional(),
  title: z.string().optional(),
  search: z.string().optional(),
  iids: z
    .preprocess((v) => (Array.isArray(v) || v === undefined ? v : [v]), z.array(integerParam))
    .optional(),
});

export const createMilestoneBody = z.object({
  title: z.string().min(1),
  description: z.string().optional(),
  due_date: isoDate.optional(),
  start_date: isoDate.optional(),
});

export const updateMilestoneBody = z.object({
  milestone_id: positiveIdParam,
  title: z.string().min(1).optional(),
  description: z.string().optional(),
  due_date: isoDate.nullable().optional(),
  start_date: isoDate.nullable().optional(),
  state_event: z.enum(['close', 'activate']).optional(),
});

export const createBoardBody = z.object({ name: z.string().min(1) });

export const updateBoardBody = z.object({
  board_id: integerParam,
  name: z.string().optional(),
  hide_backlog_list: booleanParam.optional(),
  hide_closed_list: booleanParam.optional(),
  assignee_id: integerParam.optional(),
  milestone_id: integerParam.optional(),
  labels: stringListParam.optional(),
  weight: z
    .preprocess(
      (v) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v),
      z.number().int().min(0).max(9),
    )
    .optional(),
});

export const createListBody = z.object({
  board_id: integerParam,
  label_id: integerParam.optional(),
  milestone_id: integerParam.optional(),
  iteration_id: integerParam.optional(),
  assignee_id: integerParam.optional(),
});

export const moveListBody = z.object({
  board_id: integerParam,
  list_id: integerParam,
  position: integerParam,
});
