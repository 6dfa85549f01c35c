import { Router } from 'express';
import { HOOKS_API } from '@gl/contracts';
import { route, sendJson } from '@gl/service-kit';
import { parentOf, projectAdmin } from '../hooks.access';
import type { HooksService } from '../hooks.service';
import type { HookTestService } from './hook-test.service';

/**
 * `POST /projects/:id/hooks/:hook_id/test/:trigger` (lib/api/hooks/trigger_test.rb, mounted by
 * lib/api/project_hooks.rb): the project's newest record of the trigger's kind sent to the hook with the
 * caller as `user`; `created!` (201 {"message":"201 Created"}) when the hook answered 2xx, else 422.
 */
export function createHookTestRouter(hooks: HooksService, tests: HookTestService): Router {
  const router = Router();
  route(router, HOOKS_API.testProjectHook, async ({ res, ctx, params }) => {
    const ns = projectAdmin(ctx);
    const { hook_id, trigger } = params();
    const hook = await hooks.find(parentOf(ns), hook_id);
    const { id, username, name } = ctx.principal!;
    await tests.test(hook, ns.id, trigger, { id, username, name });
    sendJson(res, 201, { message: '201 Created' });
  });
  return router;
}
