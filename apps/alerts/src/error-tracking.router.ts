import { Router, type Request } from 'express';
import { ACCESS_LEVELS, ALERTS_API } from '@gl/contracts';
import { ParamError, collectParams, route, sendJson } from '@gl/service-kit';
import { projectWith } from './alerts.access';
import type { ErrorTrackingService } from './error-tracking.service';
import { presentErrorTracking } from './presenters';

/** Grape's `requires :active, allow_blank: false`: missing, then empty, then invalid. */
function checkActive(req: Request): void {
  const { active } = collectParams(req);
  if (active === undefined || active === null) throw new ParamError(['active is missing']);
  if (typeof active === 'string' && active.trim() === '') throw new ParamError(['active is empty']);
}

/** The settings routes; Express matches them with a trailing slash too (non-strict routing). */
export function createErrorTrackingRouter(settings: ErrorTrackingService): Router {
  const router = Router();

  route(router, ALERTS_API.getErrorTrackingSettings, async ({ res, ctx }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, presentErrorTracking(await settings.find(ns.id)));
  });

  route(router, ALERTS_API.patchErrorTrackingSettings, async ({ req, res, ctx, params }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    checkActive(req);
    sendJson(res, 200, presentErrorTracking(await settings.patch(ns.id, params())));
  });

  route(router, ALERTS_API.putErrorTrackingSettings, async ({ req, res, ctx, params }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    checkActive(req);
    sendJson(res, 200, presentErrorTracking(await settings.put(ns.id, params())));
  });

  return router;
}
