import { Router } from 'express';
import { ACCESS_LEVELS, BOARDS_API, type InternalContext } from '@gl/contracts';
import { collectParams, requireExactlyOne, route, sendJson, sendNoContent } from '@gl/service-kit';
import { requireAnyOf, sendPage } from '../common/http';
import { groupAndAncestors, groupWriter, readableGroup } from '../boards/boards.access';
import { LABEL_UPDATABLE as UPDATABLE, type LabelDoc, type LabelsService } from './labels.service';
import type { LabelSubscriptions } from './label-subscriptions';
import { presentLabel } from './labels.presenter';

export function createLabelsRouter(labels: LabelsService, subscriptions: LabelSubscriptions): Router {
  const router = Router();

  /** Entities::Label with `subscribed` for the caller: one read for the labels shown. */
  async function present(ctx: InternalContext, docs: LabelDoc[]) {
    const mine = await subscriptions.subscribedAmong(
      ctx.principal?.id ?? null,
      docs.map((d) => d._id),
    );
    return docs.map((doc) => presentLabel(doc, mine.has(doc._id)));
  }
  const presentOne = async (ctx: InternalContext, doc: LabelDoc) => (await present(ctx, [doc]))[0]!;

  route(router, BOARDS_API.listGroupLabels, async ({ req, res, ctx, params }) => {
    const ns = readableGroup(ctx);
    const query = params();
    const groups = query.include_ancestor_groups === false ? [ns.id] : groupAndAncestors(ns);
    await sendPage(
      req,
      res,
      (page) => labels.page(groups, query.search, page),
      (docs) => present(ctx, docs),
    );
  });

  route(router, BOARDS_API.getGroupLabel, async ({ res, ctx, params }) => {
    const ns = readableGroup(ctx);
    sendJson(res, 200, await presentOne(ctx, await labels.find(ns.id, params().label_id)));
  });

  route(router, BOARDS_API.createGroupLabel, async ({ res, ctx, params }) => {
    const { ns } = groupWriter(ctx, ACCESS_LEVELS.reporter);
    const doc = await labels.create(ns.id, params());
    sendJson(res, 201, await presentOne(ctx, doc));
  });

  route(router, BOARDS_API.updateGroupLabel, async ({ req, res, ctx, params }) => {
    const { ns } = groupWriter(ctx, ACCESS_LEVELS.reporter);
    const changes = params();
    requireAnyOf(req, ...UPDATABLE);
    const updated = await labels.update(ns.id, changes);
    sendJson(res, 200, await presentOne(ctx, updated));
  });

  // lib/api/group_labels.rb's deprecated `put` (helpers/labels_helpers.rb update_label): exactly one of
  // label_id and name picks the label, then the same update.
  route(router, BOARDS_API.updateGroupLabelByName, async ({ req, res, ctx, params }) => {
    const { ns } = groupWriter(ctx, ACCESS_LEVELS.reporter);
    const raw = collectParams(req);
    requireAnyOf(req, ...UPDATABLE);
    const { label_id, name, ...changes } = params();
    requireExactlyOne(raw, ['label_id', 'name']);
    const updated = await labels.update(ns.id, { ...changes, label_id: String(label_id ?? name) });
    sendJson(res, 200, await presentOne(ctx, updated));
  });

  route(router, BOARDS_API.deleteGroupLabel, async ({ res, ctx, params }) => {
    const { ns } = groupWriter(ctx, ACCESS_LEVELS.reporter);
    const label = await labels.find(ns.id, params().label_id);
    await labels.remove(ns.id, String(label._id));
    await subscriptions.removeOf(label._id);
    sendNoContent(res);
  });

  return router;
}
