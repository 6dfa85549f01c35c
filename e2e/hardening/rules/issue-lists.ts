import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Issue and merge request lists beyond one project, and issue statistics. Sources: lib/api/issues.rb,
 * lib/api/merge_requests.rb, lib/api/helpers/issues_helpers.rb; the finders (IssuesFinder,
 * MergeRequestsFinder) drop what the caller may not read instead of refusing the list.
 */
const perPage = (): Record<string, string> => ({ per_page: '100' });

export const ISSUE_LIST_RULES: Rules = {
  listIssues: {
    target: 'none',
    see: 'signed-in',
    anonymous: 401,
    query: perPage,
    source: 'lib/api/issues.rb `get` (resource :issues): authenticate! unless params[:scope] == "all"',
  },
  getIssuesStatistics: {
    target: 'none',
    see: 'signed-in',
    anonymous: 401,
    source: 'lib/api/issues.rb `get "/issues_statistics"`: authenticate! unless params[:scope] == "all"',
  },
  listGroupIssues: {
    target: 'group',
    see: VISIBLE,
    query: perPage,
    source: 'lib/api/issues.rb `get ":id/issues"` (groups): user_group (find_group!) → 404',
  },
  getGroupIssuesStatistics: {
    target: 'group',
    see: VISIBLE,
    source: 'lib/api/issues.rb `get ":id/issues_statistics"` (groups): user_group (find_group!) → 404',
  },
  getProjectIssuesStatistics: {
    target: 'project',
    see: VISIBLE,
    source: 'lib/api/issues.rb `get ":id/issues_statistics"` (projects): user_project → 404',
  },
  reorderProjectIssue: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    params: (c) => ({ issue_iid: c.r.issueIid }),
    // Any global id: a neighbour outside the issue's group is GitLab's 422, still past the checks.
    body: () => ({ move_after_id: 1 }),
    source:
      'lib/api/issues.rb `put ":id/issues/:issue_iid/reorder"`: find_by(iid) → 404, authorize! :update_issue ' +
      '(ProjectPolicy reporter_access, or the author) → 403; Issues::ReorderService',
  },
  listMergeRequests: {
    target: 'none',
    see: 'signed-in',
    anonymous: 401,
    query: perPage,
    source: 'lib/api/merge_requests.rb `get` (resource :merge_requests): authenticate! unless scope == "all"',
  },
  listGroupMergeRequests: {
    target: 'group',
    see: VISIBLE,
    query: perPage,
    source:
      'lib/api/merge_requests.rb `get ":id/merge_requests"` (groups): find_group! → 404; MergeRequestsFinder ' +
      'lists only projects whose merge requests the caller reads',
  },
};
