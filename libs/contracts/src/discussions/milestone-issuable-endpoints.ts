import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { paginationQuery } from '../pagination';
import { issueEntity, mergeRequestEntity } from './entities';
import { milestonePath } from './path-params';

/**
 * The issues and merge requests of a group or project milestone (lib/api/group_milestones.rb,
 * project_milestones.rb, milestone_responses.rb `milestone_issuables_for`), served by the discussions
 * service's issue finder. Project milestones' routes run `authenticate!` first (a token even to read).
 */
export const MILESTONE_ISSUABLE_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'GET',
    path: '/groups/{id}/milestones/{milestone_id}/issues',
    operationId: 'listGroupMilestoneIssues',
    summary: 'Issues of a group milestone',
    tags: ['milestones'],
    auth: 'optional-token',
    params: milestonePath.extend(paginationQuery.shape),
    response: { status: 200, description: 'Issues', schema: z.array(issueEntity), paginated: true },
    errors: [401, 404],
  },
  {
    method: 'GET',
    path: '/groups/{id}/milestones/{milestone_id}/merge_requests',
    operationId: 'listGroupMilestoneMergeRequests',
    summary: 'Merge requests of a group milestone',
    tags: ['milestones'],
    auth: 'optional-token',
    params: milestonePath.extend(paginationQuery.shape),
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
    path: '/projects/{id}/milestones/{milestone_id}/issues',
    operationId: 'listProjectMilestoneIssues',
    summary: 'Issues of a project milestone',
    tags: ['milestones'],
    auth: 'token',
    params: milestonePath.extend(paginationQuery.shape),
    response: { status: 200, description: 'Issues', schema: z.array(issueEntity), paginated: true },
    errors: [401, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/milestones/{milestone_id}/merge_requests',
    operationId: 'listProjectMilestoneMergeRequests',
    summary: 'Merge requests of a project milestone',
    tags: ['milestones'],
    auth: 'token',
    params: milestonePath.extend(paginationQuery.shape),
    response: {
      status: 200,
      description: 'Merge requests',
      schema: z.array(mergeRequestEntity),
      paginated: true,
    },
    errors: [401, 404],
  },
]);
