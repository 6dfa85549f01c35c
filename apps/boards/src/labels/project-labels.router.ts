import { Router } from 'express';
import { BOARDS_API, type InternalContext, type NamespaceContext } from '@gl/contracts';
import {
  NotFoundError,
  collectParams,
  requireExactlyOne,
  requireUser,
  route,
  sendJson,
  sendNoContent,
  type RouteCall,
} from '@gl/service-kit';
import { requireAnyOf, sendPage } from '../common/http';
import type { LabelSubscriptions } from './label-subscriptions';
import { presentLabel } from './labels.presenter';
import { LABEL_UPDATABLE as UPDATABLE } from './labels.service';
import { labelAdmin, labelsAvailable, readableProject, requireGroupReporter } from './project-labels.access';
import type { AvailableLabel, ProjectLabelsService } from './project-labels.service';

/** lib/api/labels.rb on a project, and lib/api/subscriptions.rb on its labels. */
export function createProjectLabelsRouter(
  labels: ProjectLabelsService,
  subscriptions: LabelSubscriptions,
): Router {
  const router = Router();

  /** Entities::ProjectLabel with `subscribed` for the caller: one read for the labels shown. */
  async function present(ctx: InternalContext, shown: AvailableLabel[]) {
    const mine = await subscriptions.subscribedAmong(
      ctx.principal?.id ?? null,
      shown.map((l) => l.doc._id),
    );
    return shown.map((l) => presentLabel(l.doc, mine.has(l.doc._id), l.project));
  }
  const presentOne = async (ctx: InternalContext, label: AvailableLabel) => (await present(ctx, [label]))[0]!;

  /** A readable project whose labels the caller may read (LabelsFinder finds none otherwise). */
  function labelReader(ctx: InternalContext): { ns: NamespaceContext; readable: boolean } {
    // `before { authenticate! }` covers reads too (the gateway refuses anonymous calls first).
    requireUser(ctx);
    const ns = readableProject(ctx);
    return { ns, readable: labelsAvailable(ctx, ns) };
  }

  route(router, BOARDS_API.listProjectLabels, async ({ req, res, ctx, params }) => {
    const { ns, readable } = labelReader(ctx);
    const query = params();
    const own = query.include_ancestor_groups === false;
    await sendPage(
      req,
      res,
      async (page) => {
        if (!readable) return { total: 0, docs: [] };
        const { total, labels: docs } = await labels.page(ns, own, query.search, page);
        return { total, docs };
      },
      (shown) => present(ctx, shown),
    );
  });

  route(router, BOARDS_API.getProjectLabel, async ({ res, ctx, params }) => {
    const { ns, readable } = labelReader(ctx);
    const query = params();
    if (!readable) throw new NotFoundError('Label');
    const label = await labels.find(ns, query.label_id, query.include_ancestor_groups === false);
    sendJson(res, 200, await presentOne(ctx, label));
  });

  route(router, BOARDS_API.createProjectLabel, async ({ res, ctx, params }) => {
    const { ns } = labelAdmin(ctx);
    const created = await labels.create(ns, params());
    sendJson(res, 201, await presentOne(ctx, { project: true, doc: created }));
  });

  route(router, BOARDS_API.updateProjectLabel, async ({ req, res, ctx, params }) => {
    const { ns } = labelAdmin(ctx);
    const changes = params();
    requireAnyOf(req, ...UPDATABLE);
    const updated = await labels.update(ns, changes);
    sendJson(res, 200, await presentOne(ctx, { project: true, doc: updated }));
  });

  // The deprecated `put ':id/labels'`: exactly one of label_id and name picks the label, then the same update.
  route(router, BOARDS_API.updateProjectLabelByName, async ({ req, res, ctx, params }) => {
    const { ns } = labelAdmin(ctx);
    const raw = collectParams(req);
    requireAnyOf(req, ...UPDATABLE);
    const { label_id, name, ...changes } = params();
    requireExactlyOne(raw, ['label_id', 'name']);
    const updated = await labels.update(ns, { ...changes, label_id: String(label_id ?? name) });
    sendJson(res, 200, await presentOne(ctx, { project: true, doc: updated }));
  });

  route(router, BOARDS_API.deleteProjectLabel, async ({ res, ctx, params }) => {
    const { ns } = labelAdmin(ctx);
    await labels.remove(ns, params().label_id);
    sendNoContent(res);
  });

  // promote_label: no group is a 400 before anything else, then admin_label on the group (Reporter there,
  // not only in the project), then the project's own label.
  route(router, BOARDS_API.promoteProjectLabel, async ({ res, ctx, params }) => {
    requireUser(ctx);
    const ns = readableProject(ctx);
    if (ns.ancestorGroupIds.length > 0) {
      labelAdmin(ctx);
      requireGroupReporter(ctx);
    }
    const promoted = await labels.promote(ns, params().label_id);
    sendJson(res, 200, await presentOne(ctx, { project: false, doc: promoted }));
  });

  type ToggleCall = RouteCall<(typeof BOARDS_API)['subscribeProjectLabel' | 'unsubscribeProjectLabel']>;

  /** Subscribable#subscribe / #unsubscribe on a label the project sees: 201 with the label, else 304. */
  async function toggle({ res, ctx, params }: ToggleCall, want: boolean) {
    const user = requireUser(ctx);
    const { ns, readable } = labelReader(ctx);
    if (!readable) throw new NotFoundError('Label');
    const label = await labels.find(ns, params().label_id);
    if (await subscriptions.choose(label.doc._id, user.id, want)) {
      sendJson(res, 201, presentLabel(label.doc, want, label.project));
    } else {
      res.status(304).end();
    }
  }

  route(router, BOARDS_API.subscribeProjectLabel, async (call) => toggle(call, true));
  route(router, BOARDS_API.unsubscribeProjectLabel, async (call) => toggle(call, false));
  return router;
}
