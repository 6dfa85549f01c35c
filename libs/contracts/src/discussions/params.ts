import { z } from 'zod';
import { booleanParam, dateOrDateTimeParam, integerParam, stringListParam } from '../primitives';
import { paginationQuery } from '../pagination';
import { TEXT_LIMITS, modelLimits } from '../limits';
import { keysetListParams } from './list-params';

/** Grape coerces scalars to String for `type: String` parameters. */
const textParam = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

/** Issuable's size limits (issues, merge requests, epics), answered as the model's validation errors. */
const issuableTitle = textParam.superRefine(modelLimits.length('title', TEXT_LIMITS.issuableTitle));
const issuableDescription = textParam.superRefine(
  modelLimits.bytesize('description', TEXT_LIMITS.issuableDescriptionBytes),
);

/** Snippet's size limits: Snippets::CreateService answers them as one sentence of full messages. */
const snippetLimits = {
  title: modelLimits.length('title', TEXT_LIMITS.snippetTitle, 'sentence'),
  fileName: modelLimits.length('file_name', TEXT_LIMITS.snippetFileName, 'sentence'),
  description: modelLimits.bytesize('description', TEXT_LIMITS.snippetDescriptionBytes, 'sentence'),
  content: modelLimits.bytesize('content', TEXT_LIMITS.snippetContentBytes, 'sentence'),
};

const lineRangeEnd = z.object({
  line_code: textParam.optional(),
  type: textParam.optional(),
  old_line: integerParam.optional(),
  new_line: integerParam.optional(),
});

const positionFields = {
  base_sha: textParam,
  start_sha: textParam,
  head_sha: textParam,
  position_type: z.enum(['text', 'image', 'file']),
  new_path: textParam.optional(),
  new_line: integerParam.optional(),
  old_path: textParam.optional(),
  old_line: integerParam.optional(),
  width: integerParam.optional(),
  height: integerParam.optional(),
  x: integerParam.optional(),
  y: integerParam.optional(),
};

/** Commit diff-note position: the merge request fields without `line_range`. */
export const commitPositionParam = z.object(positionFields);
export const mergeRequestPositionParam = z.object({
  ...positionFields,
  // Grape lets an optional Hash be null: go-gitlab always sends "line_range" (null when unset), and
  // "start"/"end" as null inside a range that lacks them.
  line_range: z.object({ start: lineRangeEnd.nullish(), end: lineRangeEnd.nullish() }).nullish(),
});
export type PositionParam = z.infer<typeof mergeRequestPositionParam>;

export const listDiscussionsQuery = paginationQuery;

const createDiscussionBody = z.object({
  body: textParam,
  created_at: textParam.optional(),
});
/** A new thread may be internal, as a note may (Reporter and up; see createNoteBody). */
const internalThreadParams = {
  internal: booleanParam.optional(),
  confidential: booleanParam.optional(),
};
export const createThreadBody = createDiscussionBody.extend(internalThreadParams);
export const createMergeRequestDiscussionBody = createThreadBody.extend({
  commit_id: textParam.optional(),
  position: mergeRequestPositionParam.optional(),
});
export const createCommitDiscussionBody = createDiscussionBody.extend({
  position: commitPositionParam.optional(),
});
export const addDiscussionNoteBody = createDiscussionBody;

export const updateNoteBody = z.object({
  body: textParam.optional(),
  resolved: booleanParam.optional(),
});
export const resolveDiscussionBody = z.object({ resolved: booleanParam });

/** lib/api/notes.rb's list, and keyset pages of it (list-params.ts keysetListParams; `id` for keyset only). */
export const listNotesQuery = paginationQuery.extend({
  ...keysetListParams,
  order_by: z.enum(['created_at', 'updated_at', 'id']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  activity_filter: z.enum(['all_notes', 'only_comments', 'only_activity']).optional(),
});
/** lib/api/notes.rb: `internal` (Reporter and up may set it), and `confidential`, its deprecated name. */
export const createNoteBody = createDiscussionBody.extend(internalThreadParams);
export const updateSingleNoteBody = z.object({
  body: textParam.optional(),
  confidential: booleanParam.optional(),
});

function isCalendarDay(text: string): boolean {
  const time = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(text);
}

/** A calendar date; Grape's `type: String` with the service's Date parse: an impossible day is invalid. */
const isoDateParam = z.preprocess(
  (v) => (typeof v === 'string' && (!/^\d{4}-\d{2}-\d{2}$/.test(v) || !isCalendarDay(v)) ? Number.NaN : v),
  z.string(),
);

const nullableId = z.preprocess(
  (value) => (value === '' || value === null ? 0 : value),
  integerParam.refine((v) => v >= 0, 'is invalid'),
);

export const createIssueBody = z.object({
  title: issuableTitle.pipe(z.string().min(1)),
  description: issuableDescription.optional(),
  labels: stringListParam.optional(),
  milestone_id: nullableId.optional(),
  assignee_ids: z
    .preprocess(
      (v) => (typeof v === 'string' ? v.split(',').filter(Boolean) : typeof v === 'number' ? [v] : v),
      z.array(integerParam),
    )
    .optional(),
  issue_type: z.enum(['issue', 'incident']).optional(),
  created_at: textParam.optional(),
  confidential: booleanParam.optional(),
  /** `YYYY-MM-DD`; empty or null removes it. */
  due_date: z.preprocess((v) => (v === '' ? null : v), isoDateParam.nullable()).optional(),
  /** EE issues_helpers `optional_issue_params_ee`: kept on the tiers with issue weights; null removes it. */
  weight: integerParam.nullable().optional(),
  /** EE: the epic (its id) of the project's group or an ancestor; 0 or null: none (on PUT, out of its epic). */
  epic_id: nullableId.optional(),
  /**
   * EE, deprecated: the epic by its iid in the project's own group (`mutually_exclusive :epic_id, :epic_iid`);
   * empty or null is not given.
   */
  epic_iid: z.preprocess((v) => (v === '' ? null : v), integerParam.nullable()).optional(),
});
/** ISO 8601 date-time (Grape's `type: DateTime`): what does not parse is "<name> is invalid". */
const dateTimeParam = z.preprocess(
  (v) => (typeof v === 'string' && Number.isNaN(Date.parse(v)) ? Number.NaN : v),
  z.string(),
);

/** lib/api/helpers/issues_helpers.rb: a PUT names at least one of these (Grape's at_least_one_of). */
export const ISSUE_UPDATE_AT_LEAST_ONE_OF = [
  'assignee_id',
  'assignee_ids',
  'confidential',
  'created_at',
  'description',
  'discussion_locked',
  'due_date',
  'labels',
  'add_labels',
  'remove_labels',
  'milestone_id',
  'state_event',
  'title',
  'issue_type',
  // EE update_params_at_least_one_of.
  'weight',
  'epic_id',
  'epic_iid',
] as const;

export const updateIssueBody = createIssueBody.partial().extend({
  state_event: z.enum(['close', 'reopen']).optional(),
  /** The single-assignee form clients still send; 0 removes the assignees. */
  assignee_id: nullableId.optional(),
  add_labels: stringListParam.optional(),
  remove_labels: stringListParam.optional(),
  discussion_locked: booleanParam.optional(),
  updated_at: dateTimeParam.optional(),
});
export const createMergeRequestBody = z.object({
  source_branch: textParam,
  target_branch: textParam,
  title: issuableTitle.pipe(z.string().min(1)),
  description: issuableDescription.optional(),
  labels: stringListParam.optional(),
  milestone_id: nullableId.optional(),
  /** lib/api/merge_requests.rb `reviewer_ids` (comma-separated or an array); `0` or empty: none. */
  reviewer_ids: createIssueBody.shape.assignee_ids,
});
export const updateMergeRequestBody = z.object({
  title: issuableTitle.optional(),
  description: issuableDescription.optional(),
  labels: stringListParam.optional(),
  milestone_id: nullableId.optional(),
  assignee_ids: createIssueBody.shape.assignee_ids,
  reviewer_ids: createIssueBody.shape.assignee_ids,
  state_event: z.enum(['close', 'reopen']).optional(),
});
/**
 * Grape's `allow_blank: false` as a size-1 minimum, so that a parameter inside an array is named by its
 * index: "files[0][file_path] is empty".
 */
const presentText = textParam.superRefine((value, ctx) => {
  if (value.trim() === '') {
    ctx.addIssue({
      code: 'too_small',
      origin: 'string',
      minimum: 1,
      inclusive: true,
      input: value,
      message: '',
    });
  }
});

/** lib/api/helpers/snippets_helpers.rb create_file_params: each file's path and content, neither blank. */
const snippetFileParam = z.object({
  file_path: presentText.superRefine(snippetLimits.fileName),
  content: presentText.superRefine(snippetLimits.content),
});

/** lib/api/snippets.rb and lib/api/project_snippets.rb `post`: title and content `allow_blank: false`. */
export const createSnippetBody = z.object({
  title: presentText.superRefine(snippetLimits.title),
  description: textParam.superRefine(snippetLimits.description).optional(),
  file_name: textParam.superRefine(snippetLimits.fileName).optional(),
  content: presentText.superRefine(snippetLimits.content).optional(),
  visibility: z.enum(['private', 'internal', 'public']).optional(),
  files: z.array(snippetFileParam).optional(),
});

/** Grape's `allow_blank: false`: an empty or blank string is "<name> is empty". */
const notBlank = (name: string) =>
  textParam.superRefine((value, ctx) => {
    if (value.trim() === '') ctx.addIssue({ code: 'custom', message: `${name} is empty` });
  });

/** lib/api/helpers/snippets_helpers.rb update_file_params: what a PUT does to the snippet's files. */
export const snippetFileActionParam = z.object({
  action: z.enum(['create', 'update', 'delete', 'move']),
  file_path: textParam.optional(),
  previous_path: textParam.optional(),
  content: textParam.optional(),
});

/** lib/api/project_snippets.rb `put`: at least one of these (minimum_update_params). */
export const SNIPPET_UPDATE_AT_LEAST_ONE_OF = [
  'content',
  'description',
  'files',
  'file_name',
  'title',
  'visibility',
] as const;

export const updateSnippetBody = z.object({
  title: notBlank('title').superRefine(snippetLimits.title).optional(),
  description: textParam.superRefine(snippetLimits.description).optional(),
  file_name: textParam.superRefine(snippetLimits.fileName).optional(),
  content: notBlank('content').superRefine(snippetLimits.content).optional(),
  visibility: z.enum(['private', 'internal', 'public']).optional(),
  files: z.array(snippetFileActionParam).optional(),
});
export type SnippetFileAction = z.infer<typeof snippetFileActionParam>;

export const createEpicBody = z.object({
  title: issuableTitle.pipe(z.string().min(1)),
  description: issuableDescription.optional(),
  labels: stringListParam.optional(),
  confidential: booleanParam.optional(),
});

/** ee/lib/api/epics.rb `put`: at least one of these. */
export const EPIC_UPDATE_AT_LEAST_ONE_OF = [
  'add_labels',
  'confidential',
  'description',
  'due_date_fixed',
  'due_date_is_fixed',
  'labels',
  'parent_id',
  'remove_labels',
  'start_date_fixed',
  'start_date_is_fixed',
  'state_event',
  'title',
  'color',
] as const;

export const updateEpicBody = z.object({
  title: issuableTitle.pipe(z.string().min(1)).optional(),
  description: issuableDescription.optional(),
  labels: stringListParam.optional(),
  add_labels: stringListParam.optional(),
  remove_labels: stringListParam.optional(),
  confidential: booleanParam.optional(),
  state_event: z.enum(['reopen', 'close']).optional(),
  start_date_fixed: dateOrDateTimeParam.optional(),
  /** The deprecated name of start_date_fixed (python-gitlab sends it). */
  start_date: dateOrDateTimeParam.optional(),
  start_date_is_fixed: booleanParam.optional(),
  due_date_fixed: dateOrDateTimeParam.optional(),
  /** The deprecated name of due_date_fixed. */
  end_date: dateOrDateTimeParam.optional(),
  due_date_is_fixed: booleanParam.optional(),
});
export type EpicUpdate = z.infer<typeof updateEpicBody>;

export const commitActionParam = z.object({
  action: z.enum(['create', 'delete', 'move', 'update', 'chmod']),
  file_path: textParam,
  previous_path: textParam.optional(),
  content: textParam.optional(),
  encoding: z.enum(['text', 'base64']).optional(),
});
export const createCommitBody = z.object({
  branch: textParam,
  commit_message: textParam,
  actions: z.array(commitActionParam),
  start_branch: textParam.optional(),
  start_sha: textParam.optional(),
  author_email: textParam.optional(),
  author_name: textParam.optional(),
});

export const listCommitsQuery = paginationQuery.extend({ ref_name: textParam.optional() });
