import { z } from 'zod';
import { byOperationId, defineEndpoints } from '../endpoint';
import { activityEventEntity } from './entities';
import { currentUserEventsQuery, projectEventsQuery, userEventsQuery } from './params';

const tags = ['events'];
const list = {
  status: 200,
  description: 'Activity events',
  schema: z.array(activityEventEntity),
  paginated: true,
};

/** The activity log (events service). */
export const EVENTS_API_ENDPOINTS = defineEndpoints('events', [
  {
    method: 'GET',
    path: '/events',
    operationId: 'listCurrentUserEvents',
    summary: "The caller's events; scope=all: events of every project the caller is a member of",
    tags,
    auth: 'token',
    readScopes: ['read_user'],
    params: currentUserEventsQuery,
    response: list,
    errors: [400, 401, 403],
  },
  {
    method: 'GET',
    path: '/users/{user_id}/events',
    operationId: 'listUserEvents',
    summary: "A user's events the caller may see",
    tags,
    auth: 'token',
    readScopes: ['read_user'],
    params: userEventsQuery,
    response: list,
    errors: [400, 401, 403, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/events',
    operationId: 'listProjectEvents',
    summary: "A project's visible events",
    tags,
    auth: 'optional-token',
    params: projectEventsQuery,
    response: list,
    errors: [400, 401, 404],
  },
]);

/** The catalogue by operation id, for handler registration: `EVENTS_API.<operationId>`. */
export const EVENTS_API = byOperationId(EVENTS_API_ENDPOINTS);
