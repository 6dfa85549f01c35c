import type { IssueEntity, LabelDetailsEntity, MergeRequestEntity } from '@gl/contracts';
import type { HookIssue, HookMergeRequest } from './discussions-source';

/** Label#hook_attrs (app/models/label.rb) from what discussions shows of a label. */
export function labelHookAttrs(label: string | LabelDetailsEntity, projectId: number) {
  const details = typeof label === 'string' ? null : label;
  return {
    id: details?.id ?? null,
    title: details?.name ?? (label as string),
    color: details?.color ?? null,
    project_id: projectId,
    created_at: null as string | null,
    updated_at: null as string | null,
    template: false,
    description: details?.description ?? null,
    type: 'ProjectLabel',
    group_id: null as number | null,
  };
}

export const labelsOf = (entity: IssueEntity | MergeRequestEntity, projectId: number) =>
  (entity.labels as (string | LabelDetailsEntity)[]).map((label) => labelHookAttrs(label, projectId));

/** Issue state ids (app/models/issue.rb `available_states`; merge requests add merged 3, locked 4). */
const STATE_IDS: Record<string, number> = { opened: 1, closed: 2, merged: 3, locked: 4 };

/** Gitlab::HookData::IssueBuilder#build (lib/gitlab/hook_data/issue_builder.rb). */
export function issueHookAttrs(issue: HookIssue) {
  const assigneeIds = issue.assignees.map((assignee) => assignee.id);
  return {
    author_id: issue.author.id,
    closed_at: issue.closed_at,
    confidential: issue.confidential,
    created_at: issue.created_at,
    description: issue.description,
    discussion_locked: issue.discussion_locked,
    due_date: issue.due_date,
    id: issue.id,
    iid: issue.iid,
    last_edited_at: null as string | null,
    last_edited_by_id: null as number | null,
    milestone_id: issue.milestone?.id ?? null,
    moved_to_id: null as number | null,
    duplicated_to_id: null as number | null,
    project_id: issue.project_id,
    relative_position: issue.relative_position,
    state_id: STATE_IDS[issue.state] ?? 1,
    time_estimate: 0,
    title: issue.title,
    updated_at: issue.updated_at,
    // Not in the API's entity: discussions adds it for hooks' reads (discussions-source.ts).
    updated_by_id: issue.updated_by_id ?? null,
    weight: issue.weight ?? null,
    type: issue.type === 'INCIDENT' ? 'Incident' : 'Issue',
    url: issue.web_url,
    total_time_spent: 0,
    time_change: 0,
    human_total_time_spent: null as string | null,
    human_time_change: null as string | null,
    human_time_estimate: null as string | null,
    assignee_ids: assigneeIds,
    assignee_id: assigneeIds[0] ?? null,
    labels: labelsOf(issue, issue.project_id),
    state: issue.state,
    severity: 'unknown',
    customer_relations_contacts: [] as unknown[],
  };
}

/** Gitlab::HookData::MergeRequestBuilder#build (lib/gitlab/hook_data/merge_request_builder.rb). */
export function mergeRequestHookAttrs(mr: HookMergeRequest, projectAttrs: Record<string, unknown>) {
  const assigneeIds = mr.assignees.map((assignee) => assignee.id);
  return {
    assignee_id: assigneeIds[0] ?? null,
    author_id: mr.author.id,
    created_at: mr.created_at,
    description: mr.description,
    draft: mr.draft,
    head_pipeline_id: null as number | null,
    id: mr.id,
    iid: mr.iid,
    last_edited_at: null as string | null,
    last_edited_by_id: null as number | null,
    merge_commit_sha: mr.merge_commit_sha,
    merge_error: mr.merge_error,
    merge_params: { force_remove_source_branch: String(mr.force_remove_source_branch ? 1 : 0) },
    merge_status: mr.merge_status,
    merge_user_id: mr.merge_user?.id ?? null,
    merge_when_pipeline_succeeds: mr.merge_when_pipeline_succeeds,
    milestone_id: mr.milestone?.id ?? null,
    source_branch: mr.source_branch,
    source_project_id: mr.source_project_id,
    state_id: STATE_IDS[mr.state] ?? 1,
    target_branch: mr.target_branch,
    target_project_id: mr.target_project_id,
    time_estimate: mr.time_stats.time_estimate,
    title: mr.title,
    updated_at: mr.updated_at,
    updated_by_id: mr.updated_by_id ?? null,
    prepared_at: mr.prepared_at,
    assignee_ids: assigneeIds,
    blocking_discussions_resolved: mr.blocking_discussions_resolved,
    detailed_merge_status: mr.detailed_merge_status,
    first_contribution: mr.first_contribution,
    human_time_change: null as string | null,
    human_time_estimate: mr.time_stats.human_time_estimate,
    human_total_time_spent: mr.time_stats.human_total_time_spent,
    labels: labelsOf(mr, mr.project_id),
    last_commit: {
      id: mr.sha,
      message: mr.title,
      title: mr.title,
      timestamp: mr.updated_at,
      url: `${mr.web_url.replace(/\/-\/merge_requests\/\d+$/, '')}/-/commit/${mr.sha}`,
      author: { name: mr.author.name, email: '[REDACTED]' },
    },
    reviewer_ids: mr.reviewers.map((reviewer) => reviewer.id),
    source: projectAttrs,
    state: mr.state,
    target: projectAttrs,
    time_change: 0,
    total_time_spent: mr.time_stats.total_time_spent,
    url: mr.web_url,
    work_in_progress: mr.work_in_progress,
  };
}
