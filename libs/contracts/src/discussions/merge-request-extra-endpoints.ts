import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { paginationQuery } from '../pagination';
import { userSummary } from '../shared';
import { mergeRequestPath } from './path-params';

/** lib/api/merge_requests.rb beyond the merge request itself. */
export const MERGE_REQUEST_EXTRA_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'GET',
    path: '/projects/{id}/merge_requests/{merge_request_iid}/participants',
    operationId: 'listProjectMergeRequestParticipants',
    summary: 'Users taking part in a merge request',
    tags: ['merge_requests'],
    auth: 'optional-token',
    params: mergeRequestPath.extend(paginationQuery.shape),
    response: { status: 200, description: 'Users', schema: z.array(userSummary), paginated: true },
    errors: [401, 403, 404],
  },
]);
