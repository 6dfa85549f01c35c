import { Router } from 'express';
import { BOARDS_API } from '@gl/contracts';
import { requireUser, route, sendJson, type RouteCall } from '@gl/service-kit';
import { readableGroup } from '../boards/boards.access';
import type { LabelSubscriptions } from './label-subscriptions';
import type { LabelsService } from './labels.service';
import { presentLabel } from './labels.presenter';

/**
 * lib/api/subscriptions.rb on a group's labels: the group as user_group finds it (404), the label by id
 * or title (find_label: "404 Label Not Found"); 201 with Entities::Label when the choice changes, else an
 * empty 304.
 */
export function createLabelSubscriptionsRouter(
  labels: LabelsService,
  subscriptions: LabelSubscriptions,
): Router {
  const router = Router();

  type Call = RouteCall<(typeof BOARDS_API)['subscribeGroupLabel' | 'unsubscribeGroupLabel']>;

  async function toggle({ res, ctx, params }: Call, want: boolean) {
    // `before { authenticate! }`: anonymous callers are refused before anything is looked up.
    const user = requireUser(ctx);
    const ns = readableGroup(ctx);
    const label = await labels.find(ns.id, params().label_id);
    if (await subscriptions.choose(label._id, user.id, want)) sendJson(res, 201, presentLabel(label, want));
    else res.status(304).end();
  }

  route(router, BOARDS_API.subscribeGroupLabel, async (call) => toggle(call, true));
  route(router, BOARDS_API.unsubscribeGroupLabel, async (call) => toggle(call, false));
  return router;
}
