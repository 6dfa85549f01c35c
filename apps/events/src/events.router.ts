import { Router, type Request, type Response } from 'express';
import { EVENTS_API } from '@gl/contracts';
import {
  NotFoundError,
  readPageRequest,
  requireNamespace,
  requireUser,
  route,
  sendJson,
  setPaginationHeaders,
  setUncountedPaginationHeaders,
  projectionCaughtUp,
  type PageRequest,
  type ProjectionRevisions,
} from '@gl/service-kit';
import { createActivityFeeds } from './activity-feeds';
import { createActivityLogStore } from './activity-log.store';
import type { EventsModels } from './events.models';
import { authorIdsOf, authorsOf, presentActivity } from './events.presenter';
import type { AccessCache, IdentityAccessCache } from './access.cache';
import { canSeeProject } from './events.visibility';
import type { TimelineModels } from './timeline/timeline.models';
import { createTimelineStore, type PageWindow, type TimelinePage } from './timeline/timeline.store';
import { createUsersStore } from './users.store';

const windowOf = (page: PageRequest): PageWindow => ({ skip: page.skip, take: page.perPage });

export function createEventsRouter(
  models: EventsModels,
  timelines: TimelineModels,
  cache: IdentityAccessCache,
  revisions: Pick<ProjectionRevisions, 'caughtUp'>,
): Router {
  const router = Router();
  const feeds = createActivityFeeds(
    createTimelineStore(timelines),
    createActivityLogStore(models.activities),
  );
  const users = createUsersStore(models.users);

  /**
   * /events and /users/:id/events decide from this service's projection of memberships and visibility,
   * which follows the gateway through events: first it must have applied the request's identity revisions
   * (a removal the gateway already made counts here too), waiting briefly for the consumer, else 503.
   * /projects/:id/events needs none of it: the gateway's signed access level and visibility decide.
   */
  async function accessFor(req: Request, res: Response): Promise<AccessCache> {
    await projectionCaughtUp(revisions, req, res);
    return cache.at(req.ctx);
  }

  async function send(req: Request, res: Response, page: PageRequest, result: TimelinePage): Promise<void> {
    const known = await users.byIds(authorIdsOf(result.items));
    const authors = authorsOf(result.items, known, req.ctx.externalUrl);
    if (result.total === null) setUncountedPaginationHeaders(req, res, page, result.hasNext);
    else setPaginationHeaders(req, res, page, result.total);
    sendJson(
      res,
      200,
      result.items.map((doc) => presentActivity(doc, authors)),
    );
  }

  route(router, EVENTS_API.listCurrentUserEvents, async ({ req, res, params }) => {
    const principal = requireUser(req.ctx);
    const query = params();
    const page = readPageRequest(req.query);
    const access = await accessFor(req, res);
    const result =
      query.scope === 'all'
        ? await feeds.authorizedProjects(access, principal, query, windowOf(page))
        : await feeds.author(access, principal, principal.id, query, windowOf(page));
    await send(req, res, page, result);
  });

  route(router, EVENTS_API.listUserEvents, async ({ req, res, params }) => {
    const query = params();
    // The projection first catches up with the caller's identity revision: a user the gateway created
    // before that revision (the caller themself, just made a member) is then known here, not a 404.
    const access = await accessFor(req, res);
    const user = await users.find(query.user_id);
    if (!user) throw new NotFoundError('User');
    const page = readPageRequest(req.query);
    await send(
      req,
      res,
      page,
      await feeds.author(access, req.ctx.principal, user._id, query, windowOf(page)),
    );
  });

  route(router, EVENTS_API.listProjectEvents, async ({ req, res, params }) => {
    const ns = requireNamespace(req.ctx, 'project');
    if (!canSeeProject(req.ctx)) throw new NotFoundError('Project');
    const query = params();
    const page = readPageRequest(req.query);
    await send(req, res, page, await feeds.project(req.ctx, ns.id, query, windowOf(page)));
  });

  return router;
}
