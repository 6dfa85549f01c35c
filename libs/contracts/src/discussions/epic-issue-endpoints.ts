import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { paginationQuery } from '../pagination';
import { recordIdParam } from '../primitives';
import { epicIssueEntity, epicIssueLinkEntity } from './entities';
import { epicPath } from './path-params';

/** The issues of an epic (ee/lib/api/epic_issues.rb) [higher tier]. */
export const EPIC_ISSUE_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'GET',
    path: '/groups/{id}/epics/{epic_iid}/issues',
    operationId: 'listGroupEpicIssues',
    summary: 'Issues of an epic the caller may read',
    tags: ['epics'],
    auth: 'optional-token',
    params: epicPath.extend(paginationQuery.shape),
    response: { status: 200, description: 'Issues', schema: z.array(epicIssueEntity), paginated: true },
    errors: [401, 403, 404],
    higherTier: true,
  },
  {
    method: 'POST',
    path: '/groups/{id}/epics/{epic_iid}/issues/{issue_id}',
    operationId: 'assignGroupEpicIssue',
    summary: 'Add an issue to an epic (moving it from another)',
    tags: ['epics'],
    auth: 'token',
    params: epicPath.extend({ issue_id: recordIdParam }),
    response: { status: 201, description: 'Link', schema: epicIssueLinkEntity },
    errors: [401, 403, 404, 409],
    higherTier: true,
  },
  {
    method: 'DELETE',
    path: '/groups/{id}/epics/{epic_iid}/issues/{epic_issue_id}',
    operationId: 'removeGroupEpicIssue',
    summary: 'Take an issue out of an epic',
    tags: ['epics'],
    auth: 'token',
    params: epicPath.extend({ epic_issue_id: recordIdParam }),
    response: { status: 200, description: 'The removed link', schema: epicIssueLinkEntity },
    errors: [401, 403, 404],
    higherTier: true,
  },
]);
