import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  ACCESS_LEVELS,
  createMilestoneBody,
  listMilestonesQuery,
  positiveIdParam,
  updateMilestoneBody,
} from '@gl/contracts';
import {
  ParamError,
  atLeastOneOf,
  collectParams,
  parseParams,
  readPageRequest,
  sendJson,
  setPaginationHeaders,
  type Counters,
  type Outbox,
} from '@gl/service-kit';
import { groupWriter, readableGroup } from './boards.access';
import type { BoardsModels } from './boards.models';
import { MilestonesService, type MilestoneWriter } from './milestones.service';
import { presentMilestone } from './presenters';

const milestoneIdParams = z.object({ milestone_id: positiveIdParam });

/** A signed-in Reporter+ of a group they can read (404, then 403), as the events they write name them. */
function milestoneWriter(req: Request): MilestoneWriter & { webUrl: string } {
  const { user, ns } = groupWriter(req.ctx, ACCESS_LEVELS.reporter);
  return { user, groupId: ns.id, requestId: req.ctx.requestId, webUrl: ns.webUrl };
}

export function createMilestonesRouter(models: BoardsModels, counters: Counters, outbox: Outbox): Router {
  const router = Router();
  const milestones = new MilestonesService(models, counters, outbox);

  router.get('/groups/:id/milestones', async (req, res) => {
    const ns = readableGroup(req.ctx);
    const params = parseParams(listMilestonesQuery, req.query);
    const page = readPageRequest(req.query);
    const { total, docs } = await milestones.page(ns.id, params, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      docs.map((m) => presentMilestone(m, ns.webUrl)),
    );
  });

  router.get('/groups/:id/milestones/:milestone_id', async (req, res) => {
    const ns = readableGroup(req.ctx);
    const { milestone_id } = parseParams(milestoneIdParams, req.params);
    sendJson(res, 200, presentMilestone(await milestones.get(ns.id, milestone_id), ns.webUrl));
  });

  router.post('/groups/:id/milestones', async (req, res) => {
    const writer = milestoneWriter(req);
    const params = parseParams(createMilestoneBody, collectParams(req));
    const milestone = await milestones.create(writer, params);
    sendJson(res, 201, presentMilestone(milestone, writer.webUrl));
  });

  router.put('/groups/:id/milestones/:milestone_id', async (req, res) => {
    const writer = milestoneWriter(req);
    const all = collectParams(req);
    const params = parseParams(updateMilestoneBody, all);
    const broken = atLeastOneOf('title', 'description', 'due_date', 'start_date', 'state_event')(all);
    if (broken) throw new ParamError([broken]);
    const milestone = await milestones.update(writer, params);
    sendJson(res, 200, presentMilestone(milestone, writer.webUrl));
  });

  return router;
}
