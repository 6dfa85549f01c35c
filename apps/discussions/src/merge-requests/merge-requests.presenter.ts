import type { MergeRequestEntity } from '@gl/contracts';
import type { NoteableDoc } from '../noteables/noteable.model';
import {
  issuableHeading,
  milestoneOf,
  type IssuableExtras,
  labelsShown,
} from '../noteables/issuable.presenter';
import { iso, isoNow, references, type NamespaceView } from '../common/presenting';

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
  // Extended, not spread: see issuableHeading.
  return Object.assign(issuableHeading(doc), {
    state: doc.state,
    created_at: isoNow(doc.createdAt),
    updated_at: isoNow(doc.updatedAt),
    merged_by: doc.mergedBy ?? null,
    merged_at: iso(doc.mergedAt),
    closed_by: doc.closedBy ?? null,
    closed_at: iso(doc.closedAt),
    source_branch: doc.sourceBranch!,
    target_branch: doc.targetBranch!,
    labels: labelsShown(doc, extras),
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
    upvotes: extras.votes?.upvotes ?? 0,
    downvotes: extras.votes?.downvotes ?? 0,
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
  });
}
