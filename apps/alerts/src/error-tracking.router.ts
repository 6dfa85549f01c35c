import { Router, type Request } from 'express';
import { ACCESS_LEVELS, patchErrorTrackingBody, putErrorTrackingBody } from '@gl/contracts';
import { ParamError, collectParams, parseParams, sendJson } from '@gl/service-kit';
import { projectWith } from './alerts.access';
import type { ErrorTrackingService } from './error-tracking.service';
import { presentErrorTracking } from './presenters';

/** Grape's `requires :active, allow_blank: false`: missing, then empty, then invalid. */
function checkActive(params: Record<string, unknown>): Record<string, unknown> {
  if (params.active === undefined || params.active === null) throw new ParamError(['active is missing']);
  if (typeof params.active === 'string' && params.active.trim() === '')
    throw new ParamError(['active is empty']);
  return params;
}

export function createErrorTrackingRouter(settings: ErrorTrackingService): Router {
  const router = Router();
  const paths = ['/projects/:id/error_tracking/settings', '/projects/:id/error_tracking/settings/'];

  const maintainer = (req: Request) => projectWith(req.ctx, ACCESS_LEVELS.maintainer);

  router.get(paths, async (req, res) => {
    const ns = maintainer(req);
    sendJson(res, 200, presentErrorTracking(await settings.find(ns.id)));
  });

  router.patch(paths, async (req, res) => {
    const ns = maintainer(req);
    const params = parseParams(patchErrorTrackingBody, checkActive(collectParams(req)));
    sendJson(res, 200, presentErrorTracking(await settings.patch(ns.id, params)));
  });

  router.put(paths, async (req, res) => {
    const ns = maintainer(req);
    const params = parseParams(putErrorTrackingBody, checkActive(collectParams(req)));
    sendJson(res, 200, presentErrorTracking(await settings.put(ns.id, params)));
  });

  return router;
}
