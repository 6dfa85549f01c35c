import { z } from 'zod';
import { userSummary } from '../shared';
import { isoTimestamp } from '../primitives';

/** GitLab's diff-note position as Entities::Note exposes it. */
export const positionEntity = z.object({
  base_sha: z.string(),
  start_sha: z.string(),
  head_sha: z.string(),
  old_path: z.string().nullable(),
  new_path: z.string().nullable(),
  position_type: z.enum(['text', 'image', 'file']),
  old_line: z.number().int().nullable().optional(),
  new_line: z.number().int().nullable().optional(),
  line_range: z
    .object({
      start: z.record(z.string(), z.unknown()).nullish(),
      end: z.record(z.string(), z.unknown()).nullish(),
    })
    .nullable()
    .optional(),
  width: z.number().int().nullable().optional(),
  height: z.number().int().nullable().optional(),
  x: z.number().int().nullable().optional(),
  y: z.number().int().nullable().optional(),
});
export type PositionEntity = z.infer<typeof positionEntity>;

export const NOTEABLE_TYPES = ['Issue', 'MergeRequest', 'Snippet', 'Epic', 'Commit'] as const;
export const noteableTypeName = z.enum(NOTEABLE_TYPES);
export type NoteableTypeName = z.infer<typeof noteableTypeName>;

/** lib/api/entities/note.rb (recent). `resolved*` only when the note is resolvable. */
export const noteEntity = z.object({
  id: z.number().int(),
  type: z.enum(['DiscussionNote', 'DiffNote']).nullable(),
  body: z.string(),
  attachment: z.null(),
  author: userSummary,
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  system: z.boolean(),
  noteable_id: z.number().int().nullable(),
  noteable_type: noteableTypeName,
  project_id: z.number().int().nullable(),
  commit_id: z.string().nullable().optional(),
  position: positionEntity.optional(),
  resolvable: z.boolean(),
  resolved: z.boolean().optional(),
  resolved_by: userSummary.nullable().optional(),
  resolved_at: isoTimestamp.nullable().optional(),
  confidential: z.boolean(),
  internal: z.boolean(),
  imported: z.boolean(),
  imported_from: z.string(),
  noteable_iid: z.number().int().nullable(),
  commands_changes: z.record(z.string(), z.unknown()),
});
export type NoteEntity = z.infer<typeof noteEntity>;

export const discussionEntity = z.object({
  id: z.string().regex(/^[0-9a-f]{40}$/),
  individual_note: z.boolean(),
  resolvable: z.boolean().optional(),
  resolved: z.boolean().optional(),
  notes: z.array(noteEntity),
});
export type DiscussionEntity = z.infer<typeof discussionEntity>;

const milestoneSummary = z
  .object({
    id: z.number().int(),
    iid: z.number().int().nullable(),
    title: z.string().nullable(),
  })
  .nullable();

const references = z.object({ short: z.string(), relative: z.string(), full: z.string() });

/**
 * lib/api/entities/label_basic.rb as discussions knows a label, from its copy of the boards service's
 * labels: a title no copy knows (a label from before the copies, or one since renamed or deleted) is shown
 * by its title alone, the rest null.
 */
export const labelDetailsEntity = z.object({
  id: z.number().int().nullable(),
  name: z.string(),
  color: z.string().nullable(),
  description: z.string().nullable(),
  description_html: z.string().nullable(),
  text_color: z.string().nullable(),
});
export type LabelDetailsEntity = z.infer<typeof labelDetailsEntity>;

/** An issue's or merge request's labels: sorted titles, or with `with_labels_details` LabelBasic by title. */
const issuableLabels = z.union([z.array(z.string()), z.array(labelDetailsEntity)]);

export const issueEntity = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  project_id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(['opened', 'closed']),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  closed_at: isoTimestamp.nullable(),
  closed_by: userSummary.nullable(),
  labels: issuableLabels,
  milestone: milestoneSummary,
  assignees: z.array(z.object({ id: z.number().int() })),
  author: userSummary,
  type: z.enum(['ISSUE', 'INCIDENT']),
  issue_type: z.enum(['issue', 'incident']),
  user_notes_count: z.number().int(),
  /** Entities::IssueBasic: the thumbsup and thumbsdown awards. */
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  confidential: z.boolean(),
  discussion_locked: z.boolean().nullable(),
  /** `YYYY-MM-DD` or null. */
  due_date: z.string().nullable(),
  /** RelativePositioning: the issue's place on boards of its root group (null before it has one). */
  relative_position: z.number().int().nullable(),
  web_url: z.string(),
  references,
  /** Single-issue answers only (Entities::Issue `include_subscribed`): whether the caller gets its notices. */
  subscribed: z.boolean().optional(),
  /** Tiers with issue weights only (EE::API::Entities::IssueBasic `weight_available?`). */
  weight: z.number().int().nullable().optional(),
  /** Tiers with epics: the issue's epic the caller reads (EE::API::Entities::Issue), else null. */
  epic_iid: z.number().int().nullable().optional(),
  epic: z
    .object({
      id: z.number().int(),
      iid: z.number().int(),
      title: z.string(),
      url: z.string(),
      group_id: z.number().int(),
    })
    .nullable()
    .optional(),
});
export type IssueEntity = z.infer<typeof issueEntity>;

export const diffRefsEntity = z.object({ base_sha: z.string(), head_sha: z.string(), start_sha: z.string() });

export const mergeRequestEntity = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  project_id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(['opened', 'closed', 'merged']),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  merged_by: userSummary.nullable(),
  merged_at: isoTimestamp.nullable(),
  closed_by: userSummary.nullable(),
  closed_at: isoTimestamp.nullable(),
  source_branch: z.string(),
  target_branch: z.string(),
  labels: issuableLabels,
  milestone: milestoneSummary,
  author: userSummary,
  draft: z.boolean(),
  merge_status: z.string(),
  sha: z.string(),
  merge_commit_sha: z.string().nullable(),
  diff_refs: diffRefsEntity,
  user_notes_count: z.number().int(),
  web_url: z.string(),
  references,
  // The rest of Entities::MergeRequestBasic / MergeRequest, as this API knows them.
  merge_user: userSummary.nullable(),
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  assignees: z.array(z.object({ id: z.number().int() })),
  assignee: z.object({ id: z.number().int() }).nullable(),
  reviewers: z.array(z.object({ id: z.number().int() })),
  source_project_id: z.number().int(),
  target_project_id: z.number().int(),
  work_in_progress: z.boolean(),
  merge_when_pipeline_succeeds: z.boolean(),
  detailed_merge_status: z.string(),
  squash_commit_sha: z.string().nullable(),
  discussion_locked: z.boolean().nullable(),
  should_remove_source_branch: z.boolean().nullable(),
  force_remove_source_branch: z.boolean().nullable(),
  prepared_at: isoTimestamp.nullable(),
  reference: z.string(),
  time_stats: z.object({
    time_estimate: z.number().int(),
    total_time_spent: z.number().int(),
    human_time_estimate: z.string().nullable(),
    human_total_time_spent: z.string().nullable(),
  }),
  squash: z.boolean(),
  squash_on_merge: z.boolean(),
  task_completion_status: z.object({ count: z.number().int(), completed_count: z.number().int() }),
  has_conflicts: z.boolean(),
  blocking_discussions_resolved: z.boolean(),
  merge_error: z.string().nullable(),
  first_contribution: z.boolean(),
  pipeline: z.null(),
  head_pipeline: z.null(),
  /** Single merge request answers only (Entities::MergeRequest `include_subscribed`). */
  subscribed: z.boolean().optional(),
});
export type MergeRequestEntity = z.infer<typeof mergeRequestEntity>;

export const snippetEntity = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  visibility: z.enum(['private', 'internal', 'public']),
  author: userSummary,
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  project_id: z.number().int(),
  file_name: z.string(),
  files: z.array(z.object({ path: z.string(), raw_url: z.string() })),
  web_url: z.string(),
  raw_url: z.string(),
});
export type SnippetEntity = z.infer<typeof snippetEntity>;

export const epicEntity = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  group_id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  state: z.enum(['opened', 'closed']),
  author: userSummary,
  labels: z.array(z.string()),
  confidential: z.boolean(),
  /** The epic's dates: the fixed ones where `*_is_fixed` (no milestones inherit them here), else null. */
  start_date: z.string().nullable(),
  start_date_is_fixed: z.boolean(),
  start_date_fixed: z.string().nullable(),
  due_date: z.string().nullable(),
  due_date_is_fixed: z.boolean(),
  due_date_fixed: z.string().nullable(),
  end_date: z.string().nullable(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
  closed_at: isoTimestamp.nullable(),
  /** EE::API::Entities::Epic: the thumbsup and thumbsdown awards, as on issues. */
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  web_url: z.string(),
  references,
});
export type EpicEntity = z.infer<typeof epicEntity>;

/** EE::API::Entities::EpicIssue: the issue with its link's id and place in the epic. */
export const epicIssueEntity = issueEntity.extend({
  epic_issue_id: z.number().int(),
  relative_position: z.number().int().nullable(),
});
/** EE::API::Entities::EpicIssueLink. */
export const epicIssueLinkEntity = z.object({
  id: z.number().int(),
  relative_position: z.number().int().nullable(),
  epic: epicEntity,
  issue: issueEntity,
});

/** lib/api/entities/commit.rb + commit_detail.rb. */
export const commitEntity = z.object({
  id: z.string().regex(/^[0-9a-f]{40}$/),
  short_id: z.string(),
  created_at: isoTimestamp,
  parent_ids: z.array(z.string()),
  title: z.string(),
  message: z.string(),
  author_name: z.string(),
  author_email: z.string(),
  authored_date: isoTimestamp,
  committer_name: z.string(),
  committer_email: z.string(),
  committed_date: isoTimestamp,
  trailers: z.record(z.string(), z.string()),
  extended_trailers: z.record(z.string(), z.array(z.string())),
  web_url: z.string(),
  stats: z.object({ additions: z.number().int(), deletions: z.number().int(), total: z.number().int() }),
  status: z.null(),
  project_id: z.number().int(),
  last_pipeline: z.null(),
});
export type CommitEntity = z.infer<typeof commitEntity>;
