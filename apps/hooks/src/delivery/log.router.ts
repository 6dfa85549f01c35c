import { Router } from 'express';
import { HOOKS_API } from '@gl/contracts';
import { readPageRequest, route, sendJson, setPaginationHeaders } from '@gl/service-kit';
import { groupAdmin, parentOf, projectAdmin } from '../hooks.access';
import type { HooksService } from '../hooks.service';
import type { HookLogService } from './hook-log.service';
import { presentWebHookLog } from './log.presenter';
import { hookCallerScope, type HookRateLimiter } from './rate-limits';

/**
 * lib/api/hooks/events.rb and lib/api/hooks/resend_hook.rb, mounted for project hooks
 * (lib/api/project_hooks.rb) and group hooks (ee/lib/api/group_hooks.rb) with the hook's own access rule.
 * A resend checks `web_hook_event_resend` (5 a minute per hook parent and user) once the hook is found.
 */
export function createHookLogRouter(
  hooks: HooksService,
  logs: HookLogService,
  limiter: HookRateLimiter,
): Router {
  const router = Router();
  const kinds = [
    { access: projectAdmin, list: HOOKS_API.listProjectHookEvents, resend: HOOKS_API.resendProjectHookEvent },
    { access: groupAdmin, list: HOOKS_API.listGroupHookEvents, resend: HOOKS_API.resendGroupHookEvent },
  ] as const;

  for (const kind of kinds) {
    route(router, kind.list, async ({ req, res, ctx, params }) => {
      // Grape: the `before` blocks' 401/404/403 first, then the parameters' 400, then the hook's 404.
      const ns = kind.access(ctx);
      const { hook_id, status } = params();
      const page = readPageRequest(req.query);
      const hook = await hooks.find(parentOf(ns), hook_id);
      const { docs, total } = await logs.recent(hook._id, page, status);
      setPaginationHeaders(req, res, page, total);
      sendJson(res, 200, docs.map(presentWebHookLog));
    });

    route(router, kind.resend, async ({ res, ctx, params }) => {
      const ns = kind.access(ctx);
      const { hook_id, hook_log_id } = params();
      const hook = await hooks.find(parentOf(ns), hook_id);
      await limiter.check('web_hook_event_resend', hookCallerScope(hook, ctx.principal!.id));
      // lib/api/entities/retry_webhook_event.rb: the answer's code (hook-log.service.ts `resend`).
      sendJson(res, 201, { response_status: await logs.resend(hook, hook_log_id) });
    });
  }
  return router;
}
