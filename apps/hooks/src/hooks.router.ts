import { Router } from 'express';
import { HOOKS_API } from '@gl/contracts';
import { readPageRequest, route, sendJson, sendNoContent, setPaginationHeaders } from '@gl/service-kit';
import { groupAdmin, parentOf, projectAdmin } from './hooks.access';
import { presentGroupHook, presentProjectHook } from './hooks.presenter';
import { ancestryOf, type HooksService } from './hooks.service';

export function createHooksRouter(hooks: HooksService): Router {
  const router = Router();

  const kinds = [
    {
      access: projectAdmin,
      present: presentProjectHook,
      list: HOOKS_API.listProjectHooks,
      create: HOOKS_API.createProjectHook,
      get: HOOKS_API.getProjectHook,
      update: HOOKS_API.updateProjectHook,
      remove: HOOKS_API.deleteProjectHook,
    },
    {
      access: groupAdmin,
      present: presentGroupHook,
      list: HOOKS_API.listGroupHooks,
      create: HOOKS_API.createGroupHook,
      get: HOOKS_API.getGroupHook,
      update: HOOKS_API.updateGroupHook,
      remove: HOOKS_API.deleteGroupHook,
    },
  ] as const;

  for (const kind of kinds) {
    route(router, kind.list, async ({ req, res, ctx, params }) => {
      const ns = kind.access(ctx);
      params();
      const page = readPageRequest(req.query);
      const { docs, total } = await hooks.page(parentOf(ns), page);
      setPaginationHeaders(req, res, page, total);
      sendJson(
        res,
        200,
        docs.map((doc) => kind.present(doc)),
      );
    });

    route(router, kind.create, async ({ res, ctx, params }) => {
      const ns = kind.access(ctx);
      const created = await hooks.create(parentOf(ns), ancestryOf(ns), params());
      sendJson(res, 201, kind.present(created));
    });

    route(router, kind.get, async ({ res, ctx, params }) => {
      const ns = kind.access(ctx);
      sendJson(res, 200, kind.present(await hooks.find(parentOf(ns), params().hook_id)));
    });

    // Grape validates the path and the body before the endpoint runs, so a bad parameter is 400 before an
    // unknown hook's 404.
    route(router, kind.update, async ({ res, ctx, params }) => {
      const ns = kind.access(ctx);
      const { hook_id, ...changes } = params();
      const updated = await hooks.update(parentOf(ns), hook_id, ancestryOf(ns), changes);
      sendJson(res, 200, kind.present(updated));
    });

    route(router, kind.remove, async ({ res, ctx, params }) => {
      const ns = kind.access(ctx);
      await hooks.remove(parentOf(ns), params().hook_id);
      sendNoContent(res);
    });
  }

  return router;
}
