import { Router } from 'express';
import { ACCESS_LEVELS, BOARDS_API, type InternalContext } from '@gl/contracts';
import { route, sendJson } from '@gl/service-kit';
import { sendPage } from '../common/http';
import { groupWriter, readableGroup } from '../boards/boards.access';
import type { MilestoneWriter, MilestonesService } from './milestones.service';
import { presentMilestone } from './milestones.presenter';
import { routeMilestoneWrites } from './milestone-write-routes';

/** A signed-in Reporter+ of a group they can read (404, then 403), as the events they write name them. */
function milestoneWriter(ctx: InternalContext): MilestoneWriter & { webUrl: string } {
  const { user, ns } = groupWriter(ctx, ACCESS_LEVELS.reporter);
  return { user, groupId: ns.id, requestId: ctx.requestId, webUrl: ns.webUrl };
}

export function createMilestonesRouter(milestones: MilestonesService): Router {
  const router = Router();

  route(router, BOARDS_API.listGroupMilestones, async ({ req, res, ctx, params }) => {
    const ns = readableGroup(ctx);
    const query = params();
    await sendPage(
      req,
      res,
      (page) => milestones.page(ns.id, query, page),
      (docs) => docs.map((m) => presentMilestone(m, ns.webUrl)),
    );
  });

  route(router, BOARDS_API.getGroupMilestone, async ({ res, ctx, params }) => {
    const ns = readableGroup(ctx);
    const { milestone_id } = params();
    sendJson(res, 200, presentMilestone(await milestones.get(ns.id, milestone_id), ns.webUrl));
  });

  routeMilestoneWrites(router, 'Group', {
    writerOf: milestoneWriter,
    service: milestones,
    present: (milestone, writer) => presentMilestone(milestone, writer.webUrl),
    updatable: ['title', 'description', 'due_date', 'start_date', 'state_event'],
  });

  return router;
}
