import { Router, type Request, type Response } from 'express';
import {
  ACCESS_LEVELS,
  currentUserEventsQuery,
  projectEventsQuery,
  userEventsQuery,
  type ActivityEventsQuery,
  type InternalContext,
  type Principal,
} from '@gl/contracts';
import {
  NotFoundError,
  collectParams,
  parseParams,
  readPageRequest,
  requireNamespace,
  requireUser,
  sendJson,
  setPaginationHeaders,
  setUncountedPaginationHeaders,
  projectionCaughtUp,
  type PageRequest,
  type ProjectionRevisions,
} from '@gl/service-kit';
import { activityCriteria } from './activity-criteria';
import { activityLogPage, projectFilter } from './activity-log.store';
import type { ActivityDoc, EventsModels, UserDoc } from './events.models';
import { authorsOf, presentActivity } from './events.presenter';
import type { AccessCache, IdentityAccessCache } from './access.cache';
import { activityVisibility, authorizedProjects, projectActivityCheck } from './events.visibility';
import type { TimelineModels } from './timeline/timeline.models';
import {
  MergedCursor,
  StreamCursor,
  pageOf,
  readHead,
  streams,
  unfilteredPage,
  type Order,
  type PageWindow,
  type TimelinePage,
} from './timeline/timeline.store';

/** EventsFinder's filters (activity-criteria.ts) as one check on an event; null without any. */
export function activityFilter(query: ActivityEventsQuery): ((activity: ActivityDoc) => boolean) | null {
  const { action, targetType, createdBefore, createdFrom } = activityCriteria(query);
  const checks: ((activity: ActivityDoc) => boolean)[] = [];
  if (action) checks.push((a) => a.action === action);
  if (targetType) checks.push((a) => a.targetType === targetType);
  if (createdBefore) checks.push((a) => a.createdAt.getTime() < createdBefore.getTime());
  if (createdFrom) checks.push((a) => a.createdAt.getTime() >= createdFrom.getTime());
  if (checks.length === 0) return null;
  return (a) => checks.every((check) => check(a));
}

type Check = ((activity: ActivityDoc) => boolean) | null;

function both(a: Check, b: Check): Check {
  if (!a) return b;
  if (!b) return a;
  return (activity) => a(activity) && b(activity);
}

const orderOf = (query: ActivityEventsQuery): Order => (query.sort === 'asc' ? 'asc' : 'desc');

/** Scope=all from more projects than this reads the all-projects stream instead of merging theirs. */
const MAX_MERGED_PROJECTS = 50;

async function findUser(models: EventsModels, idOrUsername: string): Promise<UserDoc | null> {
  if (/^\d+$/.test(idOrUsername)) return models.users.findOne({ _id: Number(idOrUsername) }).lean<UserDoc>();
  return models.users.findOne({ usernameLower: idOrUsername.toLowerCase() }).lean<UserDoc>();
}

/** The gateway resolved the project for this caller; its visibility is checked here all the same. */
function canSeeProject(ctx: InternalContext): boolean {
  const ns = ctx.namespace;
  if (!ns) return false;
  if (ctx.principal?.isAdmin || ns.visibility === 'public') return true;
  if (ns.visibility === 'internal' && ctx.principal) return true;
  return ns.accessLevel >= ACCESS_LEVELS.guest;
}

export function createEventsRouter(
  models: EventsModels,
  timelines: TimelineModels,
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

  /** A page of one stream, its events checked before paging; without a check only the page is read. */
  async function streamPage(stream: string, query: ActivityEventsQuery, window: PageWindow, check: Check) {
    const order = orderOf(query);
    if (!check) return unfilteredPage(timelines, stream, order, window);
    const cursor = new StreamCursor(timelines, stream, await readHead(timelines, stream), order);
    return pageOf(cursor, window, check);
  }

  /** `authorized_projects`' events: the all-projects stream, or a merge of few projects' streams. */
  async function authorizedProjectsPage(
    access: AccessCache,
    principal: Principal,
    query: ActivityEventsQuery,
    window: PageWindow,
  ) {
    const authorized = await authorizedProjects(access, principal);
    // Each event's target is read by the same rule as on its own service (merge requests, code, ...).
    const filter = both(authorized.targets, activityFilter(query));
    if (authorized.coversAllWithActivity) return streamPage(streams.allProjects, query, window, filter);
    if (authorized.ids.size > MAX_MERGED_PROJECTS) {
      const ids = authorized.ids;
      return streamPage(
        streams.allProjects,
        query,
        window,
        both((a) => ids.has(a.projectId!), filter),
      );
    }
    const order = orderOf(query);
    const cursors = await Promise.all(
      [...authorized.ids].map(async (id) => {
        const stream = streams.project(id);
        return new StreamCursor(timelines, stream, await readHead(timelines, stream), order);
      }),
    );
    return pageOf(new MergedCursor(cursors, order), window, filter ?? (() => true));
  }

  async function send(req: Request, res: Response, page: PageRequest, result: TimelinePage): Promise<void> {
    const authors = await authorsOf(models, result.items, req.ctx.externalUrl);
    if (result.total === null) setUncountedPaginationHeaders(req, res, page, result.hasNext);
    else setPaginationHeaders(req, res, page, result.total);
    sendJson(
      res,
      200,
      result.items.map((doc) => presentActivity(doc, authors)),
    );
  }

  const windowOf = (page: PageRequest): PageWindow => ({ skip: page.skip, take: page.perPage });

  router.get('/events', async (req, res) => {
    const principal = requireUser(req.ctx);
    const query = parseParams(currentUserEventsQuery, collectParams(req));
    const page = readPageRequest(req.query);
    const access = await accessFor(req, res);
    const result =
      query.scope === 'all'
        ? await authorizedProjectsPage(access, principal, query, windowOf(page))
        : await streamPage(
            streams.author(principal.id),
            query,
            windowOf(page),
            both(await activityVisibility(access, principal), activityFilter(query)),
          );
    await send(req, res, page, result);
  });

  router.get('/users/:user_id/events', async (req, res) => {
    const query = parseParams(userEventsQuery, collectParams(req));
    // The projection first catches up with the caller's identity revision: a user the gateway created
    // before that revision (the caller themself, just made a member) is then known here, not a 404.
    const access = await accessFor(req, res);
    const user = await findUser(models, query.user_id);
    if (!user) throw new NotFoundError('User');
    const page = readPageRequest(req.query);
    const check = both(await activityVisibility(access, req.ctx.principal), activityFilter(query));
    await send(req, res, page, await streamPage(streams.author(user._id), query, windowOf(page), check));
  });

  router.get('/projects/:id/events', async (req, res) => {
    const ns = requireNamespace(req.ctx, 'project');
    if (!canSeeProject(req.ctx)) throw new NotFoundError('Project');
    const query = parseParams(projectEventsQuery, collectParams(req));
    const page = readPageRequest(req.query);
    const stream = streams.project(ns.id);
    const visibility = await projectActivityCheck(
      req.ctx,
      async () => (await readHead(timelines, stream)).sensitive,
    );
    const filter = activityFilter(query);
    // A filter alone (the caller reads every event of the project) is answered by the log's indexes.
    const result =
      visibility === null && filter !== null
        ? await activityLogPage(
            models.activities,
            projectFilter(ns.id, query),
            orderOf(query),
            windowOf(page),
          )
        : await streamPage(stream, query, windowOf(page), both(visibility, filter));
    await send(req, res, page, result);
  });

  return router;
}
