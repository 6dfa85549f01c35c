import { z } from 'zod';
import { byOperationId, defineEndpoints } from '../endpoint';
import { activityEventEntity } from './entities';
import {
  currentUserActivityStreamQuery,
  currentUserEventsQuery,
  projectActivityStreamQuery,
  projectEventsQuery,
  userActivityStreamQuery,
  userEventsQuery,
} from './params';

const tags = ['events'];
const list = {
  status: 200,
  description: 'Activity events',
  schema: z.array(activityEventEntity),
  paginated: true,
};

/**
 * A live stream of the events a list shows (not GitLab's): `text/event-stream`, one message per event (`id:`
 * its id, `event:` its action_name, `data:` the list's JSON entity, described here), a comment every 15 s;
 * `Last-Event-ID` (or `last_event_id`) replays what was missed first. 429 past the open streams allowed per
 * user.
 */
const stream = {
  status: 200,
  description: 'Server-sent events: each `data:` is one activity event',
  contentType: 'text/event-stream',
  schema: activityEventEntity,
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
  {
    method: 'GET',
    path: '/events/stream',
    operationId: 'streamCurrentUserEvents',
    summary:
      "The caller's events as they are recorded; scope=all: those of every project the caller is a member " +
      'of (server-sent events; not in GitLab)',
    tags,
    auth: 'token',
    readScopes: ['read_user'],
    params: currentUserActivityStreamQuery,
    response: stream,
    errors: [400, 401, 403, 429],
  },
  {
    method: 'GET',
    path: '/users/{user_id}/events/stream',
    operationId: 'streamUserEvents',
    summary: "A user's events the caller may see, as they are recorded (server-sent events; not in GitLab)",
    tags,
    auth: 'token',
    readScopes: ['read_user'],
    params: userActivityStreamQuery,
    response: stream,
    errors: [400, 401, 403, 404, 429],
  },
  {
    method: 'GET',
    path: '/projects/{id}/events/stream',
    operationId: 'streamProjectEvents',
    summary: "A project's visible events as they are recorded (server-sent events; not in GitLab)",
    tags,
    auth: 'optional-token',
    params: projectActivityStreamQuery,
    response: stream,
    errors: [400, 401, 404, 429],
  },
]);

/** The catalogue by operation id, for handler registration: `EVENTS_API.<operationId>`. */
export const EVENTS_API = byOperationId(EVENTS_API_ENDPOINTS);
