import { z } from 'zod';
import { keysetPaginationParam } from '../keyset';
import { paginationQuery } from '../pagination';
import { booleanParam, coerceInteger, iidsListParam, integerParam, stringListParam } from '../primitives';

/**
 * The list filters of issues and merge requests, as lib/api/issues.rb (`issues_stats_params`,
 * `negatable_issue_filter_params`, `issues_params`) and lib/api/merge_requests.rb (`merge_requests_params`)
 * declare them. One set for every scope (instance, group, project): the finder reads them the same way.
 */

/** Grape coerces scalars to String for `type: String` parameters. */
const textParam = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

/** Grape's DateTime: anything DateTime.parse reads (ISO 8601 and dates); else "<name> is invalid". */
export const dateTimeParam = z.preprocess((value) => {
  if (typeof value !== 'string' || value.trim() === '') return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time);
}, z.date());

/**
 * `assignee_id` (`integer_none_any: true`): a user id, or `None` / `Any` in any case
 * (lib/api/validations/validators/integer_none_any.rb).
 */
const userIdOrWildcard = z.preprocess(
  (value) => {
    if (typeof value === 'string' && /^(none|any)$/i.test(value.trim())) {
      return value.trim().toLowerCase() === 'none' ? 'None' : 'Any';
    }
    return coerceInteger(value);
  },
  z.union([z.number().int(), z.enum(['None', 'Any'])]),
);

/** `assignee_username` and `reviewer_username`: one name or an array of them. */
const usernamesParam = z.preprocess(
  (value) => (typeof value === 'string' ? [value] : value),
  z.array(z.string()),
);

/** Milestone wildcards (`milestone_id` on issues; also accepted as `milestone` titles, the legacy form). */
export const MILESTONE_WILDCARDS = ['Any', 'None', 'Upcoming', 'Started'] as const;

/** What `not[...]` may negate (issues: negatable_issue_filter_params; merge requests the same names). */
const negatableFilters = {
  labels: stringListParam.optional(),
  milestone: textParam.optional(),
  milestone_id: z.enum(MILESTONE_WILDCARDS).optional(),
  iids: iidsListParam.optional(),
  author_id: integerParam.optional(),
  author_username: textParam.optional(),
  assignee_id: integerParam.optional(),
  assignee_username: usernamesParam.optional(),
  my_reaction_emoji: textParam.optional(),
};

/** Issues' scope values; `created-by-me` spellings are GitLab's older ones, still accepted. */
export const ISSUABLE_SCOPES = [
  'created-by-me',
  'assigned-to-me',
  'created_by_me',
  'assigned_to_me',
  'all',
] as const;

/** The filters shared by issue lists and issue statistics (`issues_stats_params`). */
const issueFilterFields = {
  labels: stringListParam.optional(),
  milestone: textParam.optional(),
  milestone_id: z.enum(MILESTONE_WILDCARDS).optional(),
  iids: iidsListParam.optional(),
  search: textParam.optional(),
  in: textParam.optional(),
  author_id: integerParam.optional(),
  author_username: textParam.optional(),
  assignee_id: userIdOrWildcard.optional(),
  assignee_username: usernamesParam.optional(),
  created_after: dateTimeParam.optional(),
  created_before: dateTimeParam.optional(),
  updated_after: dateTimeParam.optional(),
  updated_before: dateTimeParam.optional(),
  not: z.object(negatableFilters).optional(),
  scope: z.enum(ISSUABLE_SCOPES).optional(),
  my_reaction_emoji: textParam.optional(),
  confidential: booleanParam.optional(),
  /** Higher tiers (ee issues_helpers `issues_stats_params_ee`): a weight, `None` or `Any`. */
  weight: userIdOrWildcard.optional(),
};

/** lib/api/helpers/issues_helpers.rb `sort_options`. */
export const ISSUE_ORDER_BY = [
  'created_at',
  'due_date',
  'label_priority',
  'milestone_due',
  'popularity',
  'priority',
  'relative_position',
  'title',
  'updated_at',
] as const;
/** ee/lib/ee/api/helpers/issues_helpers.rb adds `weight` (answered on the tiers that have weights). */
export const ISSUE_ORDER_BY_WITH_WEIGHT = [...ISSUE_ORDER_BY, 'weight'] as const;
export type IssueOrderBy = (typeof ISSUE_ORDER_BY_WITH_WEIGHT)[number];

/** lib/api/merge_requests.rb `order_by` values. */
export const MERGE_REQUEST_ORDER_BY = [
  'created_at',
  'label_priority',
  'milestone_due',
  'popularity',
  'priority',
  'title',
  'updated_at',
  'merged_at',
] as const;
export type MergeRequestOrderBy = (typeof MERGE_REQUEST_ORDER_BY)[number];

export const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'requirement', 'task'] as const;
export const DUE_DATE_FILTERS = [
  '0',
  'any',
  'today',
  'tomorrow',
  'overdue',
  'week',
  'month',
  'next_month_and_previous_two_weeks',
  '',
] as const;

/**
 * Keyset pages of issue, merge request and note lists (not GitLab's: it pages these by offset only,
 * doc/api/rest/index.md "Keyset-based pagination" lists where it offers keyset): `pagination=keyset` with
 * `order_by` `id`, `created_at` or `updated_at`, the id breaking ties; any other order is GitLab's 405 for
 * keyset requests it cannot serve. `id` orders keyset pages only. The next page's `Link` rel="next" and
 * `X-Next-Cursor` carry the cursor; no totals.
 */
export const keysetListParams = {
  pagination: keysetPaginationParam,
  /** With `pagination=keyset`: where the page starts, from the previous page's `Link` rel="next". */
  cursor: z
    .string()
    .max(2_000)
    .optional()
    .describe('With pagination=keyset: the next page from the last `Link`'),
};

/** GET /projects/:id/issues, /groups/:id/issues, /issues (`issues_params`). */
export const issueListQuery = z.object({
  ...paginationQuery.shape,
  ...keysetListParams,
  ...issueFilterFields,
  with_labels_details: booleanParam.optional(),
  state: z.enum(['opened', 'closed', 'all']).optional(),
  closed_by_id: integerParam.optional(),
  order_by: z.enum([...ISSUE_ORDER_BY_WITH_WEIGHT, 'id']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  due_date: z.enum(DUE_DATE_FILTERS).optional(),
  issue_type: z.enum(ISSUE_TYPES).optional(),
  non_archived: booleanParam.optional(),
});
export type IssueListQuery = z.infer<typeof issueListQuery>;

/** GET .../issues_statistics (`issues_stats_params`): the filters without state, order or page. */
export const issueStatisticsQuery = z.object(issueFilterFields);
export type IssueStatisticsQuery = z.infer<typeof issueStatisticsQuery>;

/** GET /projects/:id/merge_requests, /groups/:id/merge_requests, /merge_requests (`merge_requests_params`). */
export const mergeRequestListQuery = z.object({
  ...paginationQuery.shape,
  ...keysetListParams,
  labels: stringListParam.optional(),
  milestone: textParam.optional(),
  iids: iidsListParam.optional(),
  search: textParam.optional(),
  in: textParam.optional(),
  author_id: integerParam.optional(),
  author_username: textParam.optional(),
  assignee_id: userIdOrWildcard.optional(),
  assignee_username: usernamesParam.optional(),
  reviewer_id: userIdOrWildcard.optional(),
  reviewer_username: textParam.optional(),
  created_after: dateTimeParam.optional(),
  created_before: dateTimeParam.optional(),
  updated_after: dateTimeParam.optional(),
  updated_before: dateTimeParam.optional(),
  not: z
    .object({
      ...negatableFilters,
      reviewer_id: integerParam.optional(),
      reviewer_username: textParam.optional(),
    })
    .optional(),
  scope: z.enum([...ISSUABLE_SCOPES, 'reviews_for_me']).optional(),
  my_reaction_emoji: textParam.optional(),
  source_branch: textParam.optional(),
  target_branch: textParam.optional(),
  environment: textParam.optional(),
  deployed_before: dateTimeParam.optional(),
  deployed_after: dateTimeParam.optional(),
  approved_by_ids: textParam.optional(),
  wip: z.enum(['yes', 'no']).optional(),
  draft: booleanParam.optional(),
  state: z.enum(['opened', 'closed', 'locked', 'merged', 'all']).optional(),
  order_by: z.enum([...MERGE_REQUEST_ORDER_BY, 'id']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  view: z.enum(['simple']).optional(),
  with_labels_details: booleanParam.optional(),
  non_archived: booleanParam.optional(),
});
export type MergeRequestListQuery = z.infer<typeof mergeRequestListQuery>;

/** PUT /projects/:id/issues/:issue_iid/reorder: the global ids of the neighbours it goes between. */
export const reorderIssueBody = z.object({
  move_after_id: integerParam.optional(),
  move_before_id: integerParam.optional(),
});

/** Gitlab::IssuablesCountForState as lib/api/helpers/issues_helpers.rb `issues_statistics` presents it. */
export const issuesStatisticsEntity = z.object({
  statistics: z.object({
    counts: z.object({
      all: z.number().int(),
      closed: z.number().int(),
      opened: z.number().int(),
    }),
  }),
});
export type IssuesStatisticsEntity = z.infer<typeof issuesStatisticsEntity>;
