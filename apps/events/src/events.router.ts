import { Router, type Request, type Response } from 'express';
import type { FilterQuery } from 'mongoose';
import {
  ACCESS_LEVELS,
  ACTIVITY_TARGET_TYPES,
  currentUserEventsQuery,
  projectEventsQuery,
  userEventsQuery,
  type ActivityEventsQuery,
  type InternalContext,
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
} from '@gl/service-kit';
import type { ActivityDoc, EventsModels, UserDoc } from './events.models';
import { authorsOf, presentActivity } from './events.presenter';
import { authorizedProjectIds, membershipsOf, visibleActivityFilter } from './events.visibility';

const DAY_MS = 86_400_000;

/** EventsFinder: before → created_at < start of that day; after → created_at > end of that day (both exclusive). */
export function filtersOf(query: ActivityEventsQuery): FilterQuery<ActivityDoc>[] {
  const filters: FilterQuery<ActivityDoc>[] = [];
  if (query.action) filters.push({ action: query.action });
  if (query.target_type) filters.push({ targetType: ACTIVITY_TARGET_TYPES[query.target_type] });
  const createdAt: Record<string, Date> = {};
  if (query.before) createdAt.$lt = new Date(`${query.before}T00:00:00.000Z`);
  if (query.after) createdAt.$gte = new Date(new Date(`${query.after}T00:00:00.000Z`).getTime() + DAY_MS);
  if (Object.keys(createdAt).length > 0) filters.push({ createdAt });
  return filters;
}

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

export function createEventsRouter(models: EventsModels): Router {
  const router = Router();

  async function list(
    req: Request,
    res: Response,
    query: ActivityEventsQuery,
    scope: FilterQuery<ActivityDoc>[],
  ): Promise<void> {
    const page = readPageRequest(req.query);
    const filter: FilterQuery<ActivityDoc> = { $and: [...scope, ...filtersOf(query)] };
    if (filter.$and!.length === 0) delete filter.$and;
    const direction = query.sort === 'asc' ? 1 : -1;
    const [total, docs] = await Promise.all([
      models.activities.countDocuments(filter),
      models.activities
        .find(filter)
        .sort({ createdAt: direction, _id: direction })
        .skip(page.skip)
        .limit(page.perPage)
        .lean<ActivityDoc[]>(),
    ]);
    const authors = await authorsOf(models, docs, req.ctx.externalUrl);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      docs.map((doc) => presentActivity(doc, authors)),
    );
  }

  async function visibility(ctx: InternalContext): Promise<FilterQuery<ActivityDoc>[]> {
    const visible = await visibleActivityFilter(models, ctx.principal);
    return visible ? [visible] : [];
  }

  router.get('/events', async (req, res) => {
    const principal = requireUser(req.ctx);
    const query = parseParams(currentUserEventsQuery, collectParams(req));
    const own =
      query.scope === 'all'
        ? {
            projectId: { $in: await authorizedProjectIds(models, await membershipsOf(models, principal.id)) },
          }
        : { authorId: principal.id };
    await list(req, res, query, [own, ...(await visibility(req.ctx))]);
  });

  router.get('/users/:user_id/events', async (req, res) => {
    const query = parseParams(userEventsQuery, collectParams(req));
    const user = await findUser(models, query.user_id);
    if (!user) throw new NotFoundError('User');
    await list(req, res, query, [{ authorId: user._id }, ...(await visibility(req.ctx))]);
  });

  router.get('/projects/:id/events', async (req, res) => {
    const ns = requireNamespace(req.ctx, 'project');
    if (!canSeeProject(req.ctx)) throw new NotFoundError('Project');
    const query = parseParams(projectEventsQuery, collectParams(req));
    await list(req, res, query, [{ projectId: ns.id }]);
  });

  return router;
}
