import { Router, type Request, type Response } from 'express';
import { EVENTS_API, type ActivityStreamQuery, type InternalContext } from '@gl/contracts';
import {
  NotFoundError,
  projectionCaughtUp,
  requireNamespace,
  requireUser,
  route,
  type ProjectionRevisions,
} from '@gl/service-kit';
import { activityFilter } from '../activity-criteria';
import type { ProjectionVersion } from '@gl/service-kit';
import type { IdentityAccessCache } from '../access.cache';
import { canSeeProject } from '../events.visibility';
import { streams } from '../activity-scopes';
import type { ActivityStreams } from './activity-streams';
import { liveAuthorizedProjects, liveVisibility } from './stream-access';

export interface StreamRouterDeps {
  streams: ActivityStreams;
  /** `:user_id` (an id or a username) as the lists find it. */
  findUser: (idOrUsername: string) => Promise<{ _id: number } | null>;
  cache: IdentityAccessCache;
  version: ProjectionVersion;
  revisions: Pick<ProjectionRevisions, 'caughtUp'>;
}

/**
 * The live counterparts of the three lists (not GitLab's): the same access answers before the stream opens
 * (401, 403, 404 as the lists give them), the list's `action` and `target_type` filters, and each event
 * checked as it is sent by the rule /events uses, read from this service's identity projection — for a
 * project's stream too, where the list trusts the level the gateway signed: a stream outlives that level.
 */
export function createStreamRouter(deps: StreamRouterDeps): Router {
  const router = Router();

  /** The projection has applied the caller's identity revisions (else 503), as for the lists. */
  async function caughtUp(req: Request, res: Response): Promise<void> {
    await projectionCaughtUp(deps.revisions, req, res);
  }

  const visibility = (ctx: InternalContext, query: ActivityStreamQuery) =>
    liveVisibility(deps.cache, deps.version, ctx, activityFilter(query));

  route(router, EVENTS_API.streamCurrentUserEvents, async ({ req, res, params }) => {
    const principal = requireUser(req.ctx);
    const query = params();
    await caughtUp(req, res);
    const all = query.scope === 'all';
    const check = all
      ? liveAuthorizedProjects(deps.cache, deps.version, req.ctx, principal, activityFilter(query))
      : visibility(req.ctx, query);
    await deps.streams.serve(
      req,
      res,
      {
        stream: all ? streams.allProjects : streams.author(principal.id),
        principal,
        visibility: check,
      },
      query.last_event_id,
    );
  });

  route(router, EVENTS_API.streamUserEvents, async ({ req, res, params }) => {
    const query = params();
    await caughtUp(req, res);
    const user = await deps.findUser(query.user_id);
    if (!user) throw new NotFoundError('User');
    await deps.streams.serve(
      req,
      res,
      {
        stream: streams.author(user._id),
        principal: req.ctx.principal,
        visibility: visibility(req.ctx, query),
      },
      query.last_event_id,
    );
  });

  route(router, EVENTS_API.streamProjectEvents, async ({ req, res, params }) => {
    const ns = requireNamespace(req.ctx, 'project');
    if (!canSeeProject(req.ctx)) throw new NotFoundError('Project');
    const query = params();
    await caughtUp(req, res);
    await deps.streams.serve(
      req,
      res,
      {
        stream: streams.project(ns.id),
        principal: req.ctx.principal,
        visibility: visibility(req.ctx, query),
      },
      query.last_event_id,
    );
  });

  return router;
}
