import type {
  CommitEntity,
  DiscussionEntity,
  EpicEntity,
  IssueEntity,
  MergeRequestEntity,
  NoteEntity,
  PositionEntity,
  PositionParam,
  SnippetEntity,
  UserSummary,
} from '@gl/contracts';
import type { CommitDoc, MilestoneDoc, NoteDoc, NoteableDoc } from './discussions.models';
import { isResolvable, isThreadResolved, takesResolution } from './note-rules';
import { presentSnippetEntity } from './snippets';

const iso = (date: Date | null | undefined): string | null => (date ? new Date(date).toISOString() : null);
const isoNow = (date: Date): string => new Date(date).toISOString();

function presentPosition(position: PositionParam): PositionEntity {
  const out: PositionEntity = {
    base_sha: position.base_sha,
    start_sha: position.start_sha,
    head_sha: position.head_sha,
    old_path: position.old_path ?? null,
    new_path: position.new_path ?? null,
    position_type: position.position_type,
  };
  if (position.position_type === 'image') {
    Object.assign(out, {
      width: position.width ?? null,
      height: position.height ?? null,
      x: position.x ?? null,
      y: position.y ?? null,
    });
  } else {
    Object.assign(out, {
      old_line: position.old_line ?? null,
      new_line: position.new_line ?? null,
      line_range: position.line_range ?? null,
    });
  }
  return out;
}

export function presentNote(note: NoteDoc): NoteEntity {
  const entity: NoteEntity = {
    id: note._id,
    type: note.type,
    body: note.body,
    attachment: null,
    author: note.author,
    created_at: isoNow(note.createdAt),
    updated_at: isoNow(note.updatedAt),
    system: note.system,
    noteable_id: note.noteableId,
    noteable_type: note.noteableType,
    project_id: note.projectId,
    resolvable: isResolvable(note),
    // The API exposes the flag under both names (`confidential` is the deprecated one).
    confidential: note.internal ?? false,
    internal: note.internal ?? false,
    imported: false,
    imported_from: 'none',
    noteable_iid: note.noteableIid,
    commands_changes: {},
  };
  if (note.type === 'DiffNote' && note.noteableType === 'MergeRequest') entity.commit_id = note.commitId;
  if (note.type === 'DiffNote' && note.position) entity.position = presentPosition(note.position);
  if (takesResolution(note)) {
    entity.resolved = note.resolvedAt !== null && note.resolvedAt !== undefined;
    entity.resolved_by = note.resolvedBy ?? null;
    entity.resolved_at = iso(note.resolvedAt);
  }
  return entity;
}

/** A thread from its notes (oldest first). Individual = its first note is a single comment or system note. */
export function presentDiscussion(notes: NoteDoc[]): DiscussionEntity {
  const first = notes[0]!;
  const entity: DiscussionEntity = {
    id: first.discussionId,
    individual_note: first.type === null,
    notes: notes.map(presentNote),
  };
  if (first.noteableType === 'MergeRequest') {
    entity.resolvable = notes.some(isResolvable);
    if (entity.resolvable) entity.resolved = isThreadResolved(notes);
  }
  return entity;
}

function milestoneOf(doc: NoteableDoc, milestone: MilestoneDoc | null): IssueEntity['milestone'] {
  if (!doc.milestoneId) return null;
  return { id: doc.milestoneId, iid: milestone?.iid ?? null, title: milestone?.title ?? null };
}

function references(prefix: string, iid: number, fullPath: string): IssueEntity['references'] {
  return { short: `${prefix}${iid}`, relative: `${prefix}${iid}`, full: `${fullPath}${prefix}${iid}` };
}

export interface NamespaceView {
  webUrl: string;
  fullPath: string;
}

/** What an issue or merge request shows besides its own document. */
export interface IssuableExtras {
  milestone: MilestoneDoc | null;
  userNotesCount: number;
  /** The tier has issue weights: the issue shows `weight` (EE::API::Entities::IssueBasic). */
  weights?: boolean;
  /** Summaries of the merge request's reviewers, where read (else they are shown by id). */
  users?: Map<number, UserSummary>;
}

/** The first fields of an issue or merge request, in the order GitLab's entities list them. */
function issuableHeading(doc: NoteableDoc) {
  return {
    id: doc._id,
    iid: doc.iid!,
    project_id: doc.projectId!,
    title: doc.title,
    description: doc.description,
  };
}

export function presentIssue(doc: NoteableDoc, ns: NamespaceView, extras: IssuableExtras): IssueEntity {
  const incident = doc.issueType === 'incident';
  return {
    ...issuableHeading(doc),
    state: doc.state === 'closed' ? 'closed' : 'opened',
    created_at: isoNow(doc.createdAt),
    updated_at: isoNow(doc.updatedAt),
    closed_at: iso(doc.closedAt),
    closed_by: doc.closedBy ?? null,
    labels: doc.labels,
    milestone: milestoneOf(doc, extras.milestone),
    assignees: doc.assigneeIds.map((id) => ({ id })),
    author: doc.author,
    type: incident ? 'INCIDENT' : 'ISSUE',
    issue_type: incident ? 'incident' : 'issue',
    user_notes_count: extras.userNotesCount,
    confidential: doc.confidential,
    discussion_locked: doc.discussionLocked ?? null,
    due_date: doc.dueDate ?? null,
    relative_position: doc.relativePosition ?? null,
    web_url: `${ns.webUrl}/-/${incident ? 'issues/incident' : 'issues'}/${doc.iid}`,
    references: references('#', doc.iid!, ns.fullPath),
    ...(extras.weights && { weight: doc.weight ?? null }),
  };
}

/** MergeRequest::DRAFT_REGEX: a title starting "Draft:", "[Draft]" or "(Draft)" (any case). */
const DRAFT_TITLE = /^\s*(?:\[draft\]|\(draft\)|draft:)/i;

/** TaskList: the `- [ ]` / `- [x]` items of a description (Taskable#task_completion_status). */
function taskCompletion(text: string | null): { count: number; completed_count: number } {
  const items = [...(text ?? '').matchAll(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+\[([ xX~])\]/gm)];
  return { count: items.length, completed_count: items.filter((m) => m[1] !== ' ').length };
}

export function presentMergeRequest(
  doc: NoteableDoc,
  ns: NamespaceView,
  extras: IssuableExtras,
): MergeRequestEntity {
  const refs = doc.diffRefs!;
  const draft = DRAFT_TITLE.test(doc.title);
  // MergeRequest#detailed_merge_status: only open ones are checked; no pipelines, protected branches or
  // required approvals here, so an open one is mergeable unless it is a draft.
  const detailed = doc.state !== 'opened' ? 'not_open' : draft ? 'draft_status' : 'mergeable';
  return {
    ...issuableHeading(doc),
    state: doc.state,
    created_at: isoNow(doc.createdAt),
    updated_at: isoNow(doc.updatedAt),
    merged_by: doc.mergedBy ?? null,
    merged_at: iso(doc.mergedAt),
    closed_by: doc.closedBy ?? null,
    closed_at: iso(doc.closedAt),
    source_branch: doc.sourceBranch!,
    target_branch: doc.targetBranch!,
    labels: doc.labels,
    milestone: milestoneOf(doc, extras.milestone),
    author: doc.author,
    draft,
    merge_status: 'can_be_merged',
    sha: refs.headSha,
    merge_commit_sha: doc.mergeCommitSha ?? null,
    diff_refs: { base_sha: refs.baseSha, head_sha: refs.headSha, start_sha: refs.startSha },
    user_notes_count: extras.userNotesCount,
    web_url: `${ns.webUrl}/-/merge_requests/${doc.iid}`,
    references: references('!', doc.iid!, ns.fullPath),
    merge_user: doc.mergedBy ?? null,
    upvotes: 0,
    downvotes: 0,
    assignees: doc.assigneeIds.map((id) => ({ id })),
    assignee: doc.assigneeIds[0] !== undefined ? { id: doc.assigneeIds[0] } : null,
    reviewers: (doc.reviewerIds ?? []).map((id) => extras.users?.get(id) ?? { id }),
    source_project_id: doc.projectId!,
    target_project_id: doc.projectId!,
    work_in_progress: draft,
    merge_when_pipeline_succeeds: false,
    detailed_merge_status: detailed,
    squash_commit_sha: null,
    discussion_locked: doc.discussionLocked ?? null,
    should_remove_source_branch: null,
    force_remove_source_branch: null,
    prepared_at: isoNow(doc.createdAt),
    reference: `!${doc.iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: false,
    squash_on_merge: false,
    task_completion_status: taskCompletion(doc.description),
    has_conflicts: false,
    blocking_discussions_resolved: true,
    merge_error: null,
    first_contribution: false,
    pipeline: null,
    head_pipeline: null,
  };
}

/** A project snippet (Entities::ProjectSnippet): its files, the first as `file_name` (snippets.ts). */
export function presentSnippet(doc: NoteableDoc, ns: NamespaceView): SnippetEntity {
  return { ...presentSnippetEntity(doc, ns.webUrl), project_id: doc.projectId! };
}

export function presentEpic(doc: NoteableDoc, ns: NamespaceView): EpicEntity {
  // Epics::UpdateDatesService: a fixed date when the epic says so; no milestones lend theirs here.
  const startDate = doc.startDateIsFixed ? (doc.startDateFixed ?? null) : null;
  const dueDate = doc.dueDateIsFixed ? (doc.dueDateFixed ?? null) : null;
  return {
    id: doc._id,
    iid: doc.iid!,
    group_id: doc.groupId!,
    title: doc.title,
    description: doc.description,
    state: doc.state === 'closed' ? 'closed' : 'opened',
    author: doc.author,
    labels: doc.labels,
    confidential: doc.confidential,
    start_date: startDate,
    start_date_is_fixed: doc.startDateIsFixed ?? false,
    start_date_fixed: doc.startDateFixed ?? null,
    due_date: dueDate,
    due_date_is_fixed: doc.dueDateIsFixed ?? false,
    due_date_fixed: doc.dueDateFixed ?? null,
    end_date: dueDate,
    created_at: isoNow(doc.createdAt),
    updated_at: isoNow(doc.updatedAt),
    closed_at: iso(doc.closedAt),
    web_url: `${ns.webUrl}/-/epics/${doc.iid}`,
    references: references('&', doc.iid!, ns.fullPath),
  };
}

export function presentCommit(doc: CommitDoc, ns: NamespaceView): CommitEntity {
  const date = isoNow(doc.createdAt);
  return {
    id: doc._id,
    short_id: doc._id.slice(0, 8),
    created_at: date,
    parent_ids: doc.parentIds,
    title: doc.title,
    message: doc.message,
    author_name: doc.authorName,
    author_email: doc.authorEmail,
    authored_date: date,
    committer_name: doc.authorName,
    committer_email: doc.authorEmail,
    committed_date: date,
    trailers: {},
    extended_trailers: {},
    web_url: `${ns.webUrl}/-/commit/${doc._id}`,
    stats: { additions: 0, deletions: 0, total: 0 },
    status: null,
    project_id: doc.projectId,
    last_pipeline: null,
  };
}
