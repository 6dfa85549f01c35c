import { Router } from 'express';
import { HOOKS_API } from '@gl/contracts';
import { route, sendJson } from '@gl/service-kit';
import { groupAdmin, parentOf, projectAdmin } from '../hooks.access';
import type { HooksService } from '../hooks.service';
import type { HookTestService } from './hook-test.service';
import { hookCallerScope, type HookRateLimiter } from './rate-limits';

/**
 * `POST /projects/:id/hooks/:hook_id/test/:trigger` (lib/api/hooks/trigger_test.rb, mounted by
 * lib/api/project_hooks.rb): the project's newest record of the trigger's kind sent to the hook with the
 * caller as `user`; `created!` (201 {"message":"201 Created"}) when the hook answered 2xx, else 422.
 * `POST /groups/:id/hooks/:hook_id/test/:trigger`: the same module mounted by ee/lib/api/group_hooks.rb
 * (`authorize! :admin_web_hook, user_group`: Owner, Premium and up), its service TestHooks::GroupService
 * (ee/lib/ee/api/hooks/trigger_test.rb `hook_test_service`), which tests a project below the group.
 * Both check `web_hook_test` (5 a minute per hook parent and user) once the hook is found: 429 past it.
 */
export function createHookTestRouter(
  hooks: HooksService,
  tests: HookTestService,
  limiter: HookRateLimiter,
): Router {
  const router = Router();
  route(router, HOOKS_API.testProjectHook, async ({ res, ctx, params }) => {
    const ns = projectAdmin(ctx);
    const { hook_id, trigger } = params();
    const hook = await hooks.find(parentOf(ns), hook_id);
    const { id, username, name } = ctx.principal!;
    await limiter.check('web_hook_test', hookCallerScope(hook, id));
    await tests.test(hook, ns.id, trigger, { id, username, name });
    sendJson(res, 201, { message: '201 Created' });
  });
  route(router, HOOKS_API.testGroupHook, async ({ res, ctx, params }) => {
    const ns = groupAdmin(ctx);
    const { hook_id, trigger } = params();
    const hook = await hooks.find(parentOf(ns), hook_id);
    const { id, username, name } = ctx.principal!;
    await limiter.check('web_hook_test', hookCallerScope(hook, id));
    await tests.testGroup(hook, ns.id, trigger, { id, username, name });
    sendJson(res, 201, { message: '201 Created' });
  });
  return router;
}
