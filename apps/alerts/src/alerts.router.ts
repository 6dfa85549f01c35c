import { Router } from 'express';
import {
  ACCESS_LEVELS,
  alertIidParams,
  listAlertsQuery,
  updateAlertBody,
  type EventActor,
  type InternalContext,
} from '@gl/contracts';
import { collectParams, parseParams, readPageRequest, sendJson, setPaginationHeaders } from '@gl/service-kit';
import { projectWith } from './alerts.access';
import type { AlertsService } from './alerts.service';
import type { AlertsStore } from './alerts.store';
import { presentAlert } from './presenters';

function actorOf(ctx: InternalContext): EventActor {
  const p = ctx.principal;
  return p ? { id: p.id, username: p.username, name: p.name } : null;
}

export function createAlertsRouter(store: AlertsStore, alerts: AlertsService, producer: string): Router {
  const router = Router();
  const base = '/projects/:id/alert_management/alerts';

  router.get(base, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.developer);
    const query = parseParams(listAlertsQuery, req.query);
    const page = readPageRequest(req.query);
    const { total, alerts: found } = await store.list(ns.id, query, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(res, 200, found.map(presentAlert));
  });

  router.get(`${base}/:alert_iid`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.developer);
    const { alert_iid } = parseParams(alertIidParams, req.params);
    sendJson(res, 200, presentAlert(await alerts.get(ns.id, alert_iid)));
  });

  router.put(`${base}/:alert_iid`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.developer);
    const { alert_iid } = parseParams(alertIidParams, req.params);
    const alert = await alerts.get(ns.id, alert_iid);
    const { status } = parseParams(updateAlertBody, collectParams(req));
    const updated = await alerts.setStatus(alert, status, actorOf(req.ctx), {
      producer,
      correlationId: req.ctx.requestId,
    });
    sendJson(res, 200, presentAlert(updated));
  });

  return router;
}
