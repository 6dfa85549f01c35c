import { REPORTER_IF_PRIVATE, VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * What lib/api/issues.rb answers about one issue besides the issue: participants, the merge requests that
 * close or mention it, its deletion; a merge request's participants; a group milestone's issues and merge requests. Sources: lib/api/issues.rb, app/policies/project_policy.rb.
 */
export const ISSUE_EXTRA_RULES: Rules = {
  listProjectIssueParticipants: {
    target: 'project',
    see: VISIBLE,
    source:
      'lib/api/issues.rb `get ":id/issues/:issue_iid/participants"`: find_project_issue (IssuesFinder) → 404',
  },
  listProjectIssueClosedBy: {
    target: 'project',
    see: VISIBLE,
    source:
      'lib/api/issues.rb `get ":id/issues/:issue_iid/closed_by"`: find_project_issue → 404; merge requests ' +
      'the caller may not read are left out of the list (ReferencedMergeRequestsService)',
  },
  listProjectIssueRelatedMergeRequests: {
    target: 'project',
    see: VISIBLE,
    source:
      'lib/api/issues.rb `get ":id/issues/:issue_iid/related_merge_requests"`: find_project_issue → 404; ' +
      'unreadable merge requests are left out',
  },
  listProjectMergeRequestParticipants: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    source:
      'lib/api/merge_requests.rb `get ":id/merge_requests/:merge_request_iid/participants"`: ' +
      'find_merge_request_with_access → authorize! :read_merge_request → 403',
  },
  ...Object.fromEntries(
    (
      [
        ['listProjectMergeRequestCommits', 'commits'],
        ['getProjectMergeRequestChanges', 'changes'],
        ['listProjectMergeRequestDiffs', 'diffs'],
      ] as const
    ).map(([operation, suffix]) => [
      operation,
      {
        target: 'project',
        see: VISIBLE,
        need: REPORTER_IF_PRIVATE,
        source:
          `lib/api/merge_requests.rb \`get ":id/merge_requests/:merge_request_iid/${suffix}"\`: ` +
          'find_merge_request_with_access → authorize! :read_merge_request → 403',
      },
    ]),
  ),
  listGroupMilestoneIssues: {
    target: 'group',
    see: VISIBLE,
    source:
      'lib/api/group_milestones.rb `get ":id/milestones/:milestone_id/issues"`: user_group (find_group! → 404), ' +
      'milestone_issuables_for (IssuesFinder over the readable projects)',
  },
  listGroupMilestoneMergeRequests: {
    target: 'group',
    see: VISIBLE,
    source:
      'lib/api/group_milestones.rb `get ":id/milestones/:milestone_id/merge_requests"`: user_group → 404, ' +
      'MergeRequestsFinder over the projects whose merge requests the caller reads',
  },
  deleteProjectIssue: {
    target: 'project',
    see: VISIBLE,
    role: 'owner',
    fresh: 'issue',
    source:
      'lib/api/issues.rb `delete ":id/issues/:issue_iid"`: find_project_issue, then authorize!(:destroy_issue) ' +
      '→ 403 (ProjectPolicy: owner_access, admins)',
  },
};
