import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { issueEntity, mergeRequestEntity } from './entities';
import {
  issueListQuery,
  issueStatisticsQuery,
  issuesStatisticsEntity,
  mergeRequestListQuery,
  reorderIssueBody,
} from './list-params';
import { issuePath } from './path-params';

const issues = { status: 200, description: 'Issues', schema: z.array(issueEntity), paginated: true };
const mergeRequests = {
  status: 200,
  description: 'Merge requests',
  schema: z.array(mergeRequestEntity),
  paginated: true,
};
const statistics = { status: 200, description: 'Counts by state', schema: issuesStatisticsEntity };

/**
 * Issue and merge request lists beyond one project (lib/api/issues.rb, lib/api/merge_requests.rb), issue
 * statistics at every scope, and reordering (Issues::ReorderService). The instance-wide lists authenticate
 * unless `scope=all`, so the service decides (optional token).
 */
export const LIST_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'GET',
    path: '/issues',
    operationId: 'listIssues',
    summary: 'Issues of the caller (scope created_by_me, assigned_to_me) or all they can read',
    tags: ['issues'],
    auth: 'optional-token',
    params: issueListQuery,
    response: issues,
    errors: [400, 401, 405],
  },
  {
    method: 'GET',
    path: '/groups/{id}/issues',
    operationId: 'listGroupIssues',
    summary: 'Issues of the projects of a group and its subgroups',
    tags: ['issues'],
    auth: 'optional-token',
    params: issueListQuery,
    response: issues,
    errors: [400, 401, 404, 405],
  },
  {
    method: 'GET',
    path: '/issues_statistics',
    operationId: 'getIssuesStatistics',
    summary: 'Counts of the caller’s issues by state',
    tags: ['issues'],
    auth: 'optional-token',
    params: issueStatisticsQuery,
    response: statistics,
    errors: [400, 401],
  },
  {
    method: 'GET',
    path: '/groups/{id}/issues_statistics',
    operationId: 'getGroupIssuesStatistics',
    summary: 'Counts of a group’s issues by state',
    tags: ['issues'],
    auth: 'optional-token',
    params: issueStatisticsQuery,
    response: statistics,
    errors: [400, 401, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/issues_statistics',
    operationId: 'getProjectIssuesStatistics',
    summary: 'Counts of a project’s issues by state',
    tags: ['issues'],
    auth: 'optional-token',
    params: issueStatisticsQuery,
    response: statistics,
    errors: [400, 401, 404],
  },
  {
    method: 'PUT',
    path: '/projects/{id}/issues/{issue_iid}/reorder',
    operationId: 'reorderProjectIssue',
    summary: 'Place an issue between two others (boards)',
    tags: ['issues'],
    auth: 'token',
    params: issuePath.extend(reorderIssueBody.shape),
    response: { status: 200, description: 'Issue', schema: issueEntity },
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: 'GET',
    path: '/merge_requests',
    operationId: 'listMergeRequests',
    summary: 'Merge requests of the caller (scope created_by_me, assigned_to_me) or all they can read',
    tags: ['merge_requests'],
    auth: 'optional-token',
    params: mergeRequestListQuery,
    response: mergeRequests,
    errors: [400, 401, 405],
  },
  {
    method: 'GET',
    path: '/groups/{id}/merge_requests',
    operationId: 'listGroupMergeRequests',
    summary: 'Merge requests of the projects of a group and its subgroups',
    tags: ['merge_requests'],
    auth: 'optional-token',
    params: mergeRequestListQuery,
    response: mergeRequests,
    errors: [400, 401, 404, 405],
  },
]);
