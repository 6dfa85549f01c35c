import { Router } from 'express';
import { z } from 'zod';
import {
  ACCESS_LEVELS,
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  createMilestoneBody,
  listMilestonesQuery,
  positiveIdParam,
  updateMilestoneBody,
  type NamespaceContext,
  type Principal,
  type TargetEventData,
  type EventEnvelope,
} from '@gl/contracts';
import {
  ModelError,
  NotFoundError,
  ParamError,
  atLeastOneOf,
  collectParams,
  createEvent,
  excerpt,
  isDuplicateKeyError,
  parseParams,
  pushEvents,
  readPageRequest,
  sendJson,
  setPaginationHeaders,
  withEvents,
  type Counters,
  type Outbox,
  findPage,
} from '@gl/service-kit';
import type { Request } from 'express';
import { groupWriter, readableGroup } from './boards.access';
import type { BoardsModels, MilestoneDoc } from './boards.models';
import { presentMilestone } from './presenters';

export const SERVICE_PRODUCER = 'boards';
const TAKEN = (): ModelError => ModelError.fields({ title: ['has already been taken'] });

/** Milestone#start_date_should_be_less_than_due_date. */
function requireDateOrder(startDate: string | null, dueDate: string | null): void {
  if (startDate && dueDate && dueDate < startDate) {
    throw ModelError.fields({ due_date: ['must be greater than start date'] });
  }
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function milestoneEvent(
  req: Request,
  user: Principal,
  ns: NamespaceContext,
  type: string,
  milestone: MilestoneDoc,
): EventEnvelope {
  const data: TargetEventData = {
    targetId: milestone._id,
    targetIid: milestone.iid,
    targetTitle: excerpt(milestone.title, EVENT_TEXT_LIMITS.title),
  };
  return createEvent(
    { producer: SERVICE_PRODUCER, correlationId: req.ctx.requestId },
    {
      type,
      actor: { id: user.id, username: user.username, name: user.name },
      groupId: ns.id,
      data,
    },
  );
}

export function createMilestonesRouter(models: BoardsModels, counters: Counters, outbox: Outbox): Router {
  const router = Router();
  const { milestoneOpened, milestoneClosed, milestoneReopened } = DOMAIN_EVENT_TYPES.boards;

  router.get('/groups/:id/milestones', async (req, res) => {
    const ns = readableGroup(req.ctx);
    const params = parseParams(listMilestonesQuery, req.query);
    const page = readPageRequest(req.query);
    const filter: Record<string, unknown> = { groupId: ns.id };
    if (params.state) filter.state = params.state;
    if (params.title !== undefined) filter.title = params.title;
    if (params.search) filter.title = { $regex: escapeRegex(params.search), $options: 'i' };
    if (params.iids) filter.iid = { $in: params.iids };
    const { total, docs } = await findPage(models.milestones, filter, { _id: -1 }, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      docs.map((m) => presentMilestone(m, ns.webUrl)),
    );
  });

  router.get('/groups/:id/milestones/:milestone_id', async (req, res) => {
    const ns = readableGroup(req.ctx);
    const { milestone_id } = parseParams(z.object({ milestone_id: positiveIdParam }), req.params);
    const milestone = await models.milestones
      .findOne({ _id: milestone_id, groupId: ns.id })
      .lean<MilestoneDoc>();
    if (!milestone) throw new NotFoundError('Milestone');
    sendJson(res, 200, presentMilestone(milestone, ns.webUrl));
  });

  router.post('/groups/:id/milestones', async (req, res) => {
    const { user, ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
    const params = parseParams(createMilestoneBody, collectParams(req));
    requireDateOrder(params.start_date ?? null, params.due_date ?? null);
    if (await models.milestones.exists({ groupId: ns.id, title: params.title })) throw TAKEN();
    const now = new Date();
    const doc: MilestoneDoc = {
      _id: await counters.next('milestone'),
      groupId: ns.id,
      iid: await counters.next(`milestone-iid:${ns.id}`),
      title: params.title,
      description: params.description ?? '',
      state: 'active',
      dueDate: params.due_date ?? null,
      startDate: params.start_date ?? null,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await models.milestones.create(withEvents(doc, [milestoneEvent(req, user, ns, milestoneOpened, doc)]));
    } catch (err) {
      if (isDuplicateKeyError(err)) throw TAKEN();
      throw err;
    }
    outbox.kick();
    sendJson(res, 201, presentMilestone(doc, ns.webUrl));
  });

  router.put('/groups/:id/milestones/:milestone_id', async (req, res) => {
    const { user, ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
    const all = collectParams(req);
    const params = parseParams(updateMilestoneBody, all);
    const broken = atLeastOneOf('title', 'description', 'due_date', 'start_date', 'state_event')(all);
    if (broken) throw new ParamError([broken]);
    const current = await models.milestones
      .findOne({ _id: params.milestone_id, groupId: ns.id })
      .lean<MilestoneDoc>();
    if (!current) throw new NotFoundError('Milestone');
    const set: Partial<MilestoneDoc> = { updatedAt: new Date() };
    if (params.title !== undefined) set.title = params.title;
    if (params.description !== undefined) set.description = params.description;
    if (params.due_date !== undefined) set.dueDate = params.due_date;
    if (params.start_date !== undefined) set.startDate = params.start_date;
    const nextState =
      params.state_event === 'close'
        ? 'closed'
        : params.state_event === 'activate'
          ? 'active'
          : current.state;
    if (nextState !== current.state) set.state = nextState;
    const after: MilestoneDoc = { ...current, ...set };
    requireDateOrder(after.startDate, after.dueDate);
    const events =
      nextState === current.state
        ? []
        : [
            milestoneEvent(
              req,
              user,
              ns,
              nextState === 'closed' ? milestoneClosed : milestoneReopened,
              after,
            ),
          ];
    let updated: MilestoneDoc | null;
    try {
      updated = await models.milestones
        .findOneAndUpdate({ _id: current._id }, pushEvents({ $set: set }, events), { new: true })
        .lean<MilestoneDoc>();
    } catch (err) {
      if (isDuplicateKeyError(err)) throw TAKEN();
      throw err;
    }
    if (!updated) throw new NotFoundError('Milestone');
    if (events.length > 0) outbox.kick();
    sendJson(res, 200, presentMilestone(updated, ns.webUrl));
  });

  return router;
}
