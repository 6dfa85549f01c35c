import { unique } from '../../e2e.helpers';
import { commitBody } from '../resources';
import { REPORTER_IF_PRIVATE, VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Issues, merge requests, snippets, epics and commits themselves. Sources: lib/api/issues.rb,
 * merge_requests.rb, project_snippets.rb, commits.rb, ee/lib/api/epics.rb, app/policies/project_policy.rb,
 * app/policies/project_snippet_policy.rb, ee/app/policies/epic_policy.rb, ee/app/policies/ee/group_policy.rb.
 */
const perPage = (): Record<string, string> => ({ per_page: '100' });

export const NOTEABLE_RULES: Rules = {
  listProjectIssues: {
    target: 'project',
    see: VISIBLE,
    query: perPage,
    source:
      'lib/api/issues.rb `get ":id/issues"`: user_project; ProjectPolicy read_issue (guest, public_access)',
  },
  createProjectIssue: {
    target: 'project',
    see: VISIBLE,
    role: 'signed-in',
    body: () => ({ title: `Matrix ${unique('i')}` }),
    source:
      'lib/api/issues.rb `post`: authorize! :create_issue; ProjectPolicy: guest_access, which ' +
      'public_user_access gives any signed-in user on public and internal projects',
  },
  getProjectIssue: {
    target: 'project',
    see: VISIBLE,
    source: 'lib/api/issues.rb `get ":id/issues/:issue_iid"`: find_project_issue (IssuesFinder) → 404',
  },
  updateProjectIssue: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ description: `edited ${unique('d')}` }),
    source:
      'lib/api/issues.rb `put`: authorize! :update_issue (ProjectPolicy reporter_access, or the author)',
  },
  listProjectMergeRequests: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    query: perPage,
    source:
      'lib/api/merge_requests.rb `get ":id/merge_requests"`: authorize! :read_merge_request, user_project ' +
      '→ 403 (ProjectPolicy: reporter_access, or public_access on public/internal projects)',
  },
  createProjectMergeRequest: {
    target: 'project',
    see: VISIBLE,
    role: 'developer',
    body: () => ({ source_branch: 'feature', target_branch: 'main', title: `Matrix ${unique('m')}` }),
    source:
      'lib/api/merge_requests.rb `post`: authorize! :create_merge_request_from (ProjectPolicy developer_access)',
  },
  getProjectMergeRequest: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    source: 'lib/api/helpers.rb find_merge_request_with_access: authorize! :read_merge_request → 403',
  },
  updateProjectMergeRequest: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    role: 'developer',
    body: () => ({ description: `edited ${unique('d')}` }),
    source:
      'lib/api/merge_requests.rb `put`: find_merge_request_with_access(iid, :update_merge_request) → 403',
  },
  mergeProjectMergeRequest: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    denied: 404,
    role: 'developer',
    roleDenied: 401,
    fresh: 'mergeRequest',
    source:
      'lib/api/merge_requests.rb `put ":id/merge_requests/:merge_request_iid/merge"`: ' +
      'find_project_merge_request (finder → 404), then `unauthorized! unless ' +
      'merge_request.can_be_merged_by?(current_user)` → 401; this API models no protected branches, so ' +
      'whoever may push to the target branch (Developer and up) may merge',
  },
  listProjectSnippets: {
    target: 'project',
    see: VISIBLE,
    query: perPage,
    lists: [
      // app/finders/snippets_finder.rb: private project snippets for members (and the author) only.
      { name: 'the private snippet', match: (item, c) => item.id === c.r.privateSnippetId, sight: 'guest' },
      {
        name: 'the snippet of the project visibility',
        match: (item, c) => item.id === c.r.snippetId,
        sight: VISIBLE,
      },
    ],
    source: 'lib/api/project_snippets.rb `get ":id/snippets"`: snippets_for_current_user (SnippetsFinder)',
  },
  createProjectSnippet: {
    anonymousWrite: 'lookup-first',
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ title: `Matrix ${unique('s')}`, file_name: 'm.txt', content: 'x', visibility: 'private' }),
    source: 'lib/api/project_snippets.rb `post`: authorize! :create_snippet (ProjectPolicy reporter_access)',
  },
  getProjectSnippet: {
    target: 'project',
    see: VISIBLE,
    variants: [
      {
        name: 'private snippet',
        params: (c) => ({ snippet_id: c.r.privateSnippetId }),
        need: 'guest',
        denied: 404,
        source:
          'app/policies/project_snippet_policy.rb: a private snippet is read by project members, its author ' +
          'and admins only; SnippetsFinder misses it → 404',
      },
    ],
    source: 'lib/api/project_snippets.rb `get ":id/snippets/:snippet_id"`: SnippetsFinder → 404',
  },
  listGroupEpics: {
    target: 'group',
    see: VISIBLE,
    query: perPage,
    lists: [
      {
        name: 'the confidential epic',
        match: (item, c) => item.id === c.r.confidentialEpic.id,
        sight: 'reporter',
      },
      { name: 'the epic', match: (item, c) => item.id === c.r.epic.id, sight: VISIBLE },
    ],
    source:
      'ee/lib/api/epics.rb `get ":id/epics"` (authenticate_non_get!); EpicsFinder drops confidential epics ' +
      'for callers without read_confidential_epic (ee GroupPolicy: reporter)',
  },
  createGroupEpic: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ title: `Matrix ${unique('e')}` }),
    source: 'ee/lib/api/epics.rb `post`: authorize_can_create! (admin_epic on the group: reporter)',
  },
  getGroupEpic: {
    target: 'group',
    see: VISIBLE,
    variants: [
      {
        name: 'confidential epic',
        params: (c) => ({ epic_iid: c.r.confidentialEpic.iid }),
        need: 'reporter',
        denied: 403,
        source:
          'ee/lib/api/epics.rb `get ":id/epics/:epic_iid"`: authorize_can_read! → 403; ee/app/policies/' +
          'epic_policy.rb: confidential & ~planner_or_reporter_access prevents read_epic',
      },
    ],
    source: 'ee/lib/api/epics.rb `get ":id/epics/:epic_iid"`: authorize! :read_epic',
  },
  createProjectCommit: {
    anonymousWrite: 'lookup-first',
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    role: 'developer',
    body: () => commitBody(unique('mx-branch-'), 'main'),
    source:
      'lib/api/commits.rb: before { authorize! :download_code } (→ 403), then authorize_push_to_branch! ' +
      '(push_code: developer) on a new branch',
  },
  listProjectCommits: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    source: 'lib/api/commits.rb: before { authorize! :download_code, user_project } → 403',
  },
  getProjectCommit: {
    target: 'project',
    see: VISIBLE,
    need: REPORTER_IF_PRIVATE,
    source: 'lib/api/commits.rb: before { authorize! :download_code, user_project } → 403',
  },
};
