import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { paginationQuery } from '../pagination';
import { userSummary } from '../shared';
import { mergeRequestEntity } from './entities';
import { issuePath } from './path-params';

/**
 * What lib/api/issues.rb answers about one issue besides the issue itself: who takes part, the merge
 * requests that close or mention it; and its deletion.
 */
export const ISSUE_EXTRA_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'GET',
    path: '/projects/{id}/issues/{issue_iid}/participants',
    operationId: 'listProjectIssueParticipants',
    summary: 'Users taking part in an issue',
    tags: ['issues'],
    auth: 'optional-token',
    params: issuePath.extend(paginationQuery.shape),
    response: { status: 200, description: 'Users', schema: z.array(userSummary), paginated: true },
    errors: [401, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/issues/{issue_iid}/closed_by',
    operationId: 'listProjectIssueClosedBy',
    summary: 'Merge requests that close the issue when merged',
    tags: ['issues'],
    auth: 'optional-token',
    params: issuePath.extend(paginationQuery.shape),
    response: {
      status: 200,
      description: 'Merge requests',
      schema: z.array(mergeRequestEntity),
      paginated: true,
    },
    errors: [401, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/issues/{issue_iid}/related_merge_requests',
    operationId: 'listProjectIssueRelatedMergeRequests',
    summary: 'Merge requests that mention or close the issue',
    tags: ['issues'],
    auth: 'optional-token',
    params: issuePath.extend(paginationQuery.shape),
    response: {
      status: 200,
      description: 'Merge requests',
      schema: z.array(mergeRequestEntity),
      paginated: true,
    },
    errors: [401, 404],
  },
  {
    method: 'DELETE',
    path: '/projects/{id}/issues/{issue_iid}',
    operationId: 'deleteProjectIssue',
    summary: 'Delete an issue (project Owner or admin)',
    tags: ['issues'],
    auth: 'token',
    params: issuePath,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
  },
]);
