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
import type { AccessCache, IdentityAccessCache } from './access.cache';
import { canSeeProject } from './events.visibility';
import type { EventsService, PresentedPage } from './events.service';

const windowOf = (page: PageRequest) => ({ skip: page.skip, take: page.perPage });

export function createEventsRouter(
  events: EventsService,
  cache: IdentityAccessCache,
  revisions: Pick<ProjectionRevisions, 'caughtUp'>,
): Router {
  const router = Router();

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

  function send(req: Request, res: Response, page: PageRequest, result: PresentedPage): void {
    if (result.total === null) setUncountedPaginationHeaders(req, res, page, result.hasNext);
    else setPaginationHeaders(req, res, page, result.total);
    sendJson(res, 200, result.entities);
  }

  route(router, EVENTS_API.listCurrentUserEvents, async ({ req, res, params }) => {
    const principal = requireUser(req.ctx);
    const query = params();
    const page = readPageRequest(req.query);
    const access = await accessFor(req, res);
    const result =
      query.scope === 'all'
        ? await events.authorizedProjects(req.ctx, access, principal, query, windowOf(page))
        : await events.author(req.ctx, access, principal.id, query, windowOf(page));
    send(req, res, page, result);
  });

  route(router, EVENTS_API.listUserEvents, async ({ req, res, params }) => {
    const query = params();
    // The projection first catches up with the caller's identity revision: a user the gateway created
    // before that revision (the caller themself, just made a member) is then known here, not a 404.
    const access = await accessFor(req, res);
    const user = await events.findUser(query.user_id);
    if (!user) throw new NotFoundError('User');
    const page = readPageRequest(req.query);
    send(req, res, page, await events.author(req.ctx, access, user, query, windowOf(page)));
  });

  route(router, EVENTS_API.listProjectEvents, async ({ req, res, params }) => {
    const ns = requireNamespace(req.ctx, 'project');
    if (!canSeeProject(req.ctx)) throw new NotFoundError('Project');
    const query = params();
    const page = readPageRequest(req.query);
    send(req, res, page, await events.project(req.ctx, ns.id, query, windowOf(page)));
  });

  return router;
}
