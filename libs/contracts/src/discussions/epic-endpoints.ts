import { defineEndpoints } from '../endpoint';
import { epicEntity } from './entities';
import { updateEpicBody } from './params';
import { epicPath } from './path-params';

/** Epics beyond create, list and read: change and deletion (ee/lib/api/epics.rb) [higher tier]. */
export const EPIC_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'PUT',
    path: '/groups/{id}/epics/{epic_iid}',
    operationId: 'updateGroupEpic',
    summary: 'Change, close or reopen an epic (Reporter and up)',
    tags: ['epics'],
    auth: 'token',
    params: epicPath.extend(updateEpicBody.shape),
    response: { status: 200, description: 'Epic', schema: epicEntity },
    errors: [400, 401, 403, 404],
    higherTier: true,
  },
  {
    method: 'DELETE',
    path: '/groups/{id}/epics/{epic_iid}',
    operationId: 'deleteGroupEpic',
    summary: 'Delete an epic (group Owner)',
    tags: ['epics'],
    auth: 'token',
    params: epicPath,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
    higherTier: true,
  },
]);
