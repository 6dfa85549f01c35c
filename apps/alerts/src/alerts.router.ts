import { Router } from 'express';
import { ACCESS_LEVELS, ALERTS_API } from '@gl/contracts';
import {
  eventActor,
  readPageRequest,
  requestOrigin,
  route,
  sendJson,
  setPaginationHeaders,
} from '@gl/service-kit';
import { projectWith } from './alerts.access';
import type { AlertsService } from './alerts.service';
import { presentAlert } from './presenters';

export function createAlertsRouter(alerts: AlertsService, producer: string): Router {
  const router = Router();

  route(router, ALERTS_API.listAlerts, async ({ req, res, ctx, params }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.developer);
    const query = params();
    const page = readPageRequest(req.query);
    const { total, alerts: found } = await alerts.list(ns.id, query, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(res, 200, found.map(presentAlert));
  });

  route(router, ALERTS_API.getAlert, async ({ res, ctx, params }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.developer);
    const { alert_iid } = params();
    sendJson(res, 200, presentAlert(await alerts.get(ns.id, alert_iid)));
  });

  // The alert is looked up (a 404) before the body is parsed, so the iid comes from the path first.
  route(router, ALERTS_API.updateAlert, async ({ res, ctx, params, pathParams }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.developer);
    const { alert_iid } = pathParams();
    const alert = await alerts.get(ns.id, alert_iid);
    const { status } = params();
    const updated = await alerts.setStatus(
      alert,
      status,
      eventActor(ctx.principal),
      requestOrigin(producer, ctx),
    );
    sendJson(res, 200, presentAlert(updated));
  });

  return router;
}
