import { Router } from 'express';
import {
  ACCESS_LEVELS,
  alertIidParams,
  listAlertsQuery,
  updateAlertBody,
  type EventActor,
  type InternalContext,
} from '@gl/contracts';
import {
  collectParams,
  parseParams,
  readPageRequest,
  sendJson,
  setPaginationHeaders,
  findPage,
} from '@gl/service-kit';
import { projectWith } from './alerts.access';
import type { AlertsModels } from './alerts.models';
import type { AlertsService } from './alerts.service';
import { presentAlert } from './presenters';

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Sort fields; severity and status sort by rank, where ascending means less critical / Ignored first. */
const SORT_FIELDS: Record<string, string> = {
  started_at: 'startedAt',
  ended_at: 'endedAt',
  created_at: 'createdAt',
  event_count: 'events',
  severity: 'severityRank',
  status: 'statusRank',
};
const RANKED = new Set(['severity', 'status']);

function actorOf(ctx: InternalContext): EventActor {
  const p = ctx.principal;
  return p ? { id: p.id, username: p.username, name: p.name } : null;
}

export function createAlertsRouter(models: AlertsModels, alerts: AlertsService, producer: string): Router {
  const router = Router();
  const base = '/projects/:id/alert_management/alerts';

  router.get(base, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.developer);
    const query = parseParams(listAlertsQuery, req.query);
    const page = readPageRequest(req.query);
    const filter: Record<string, unknown> = { projectId: ns.id };
    if (query.status) filter.status = query.status;
    if (query.severity) filter.severity = query.severity;
    if (query.search) {
      const pattern = new RegExp(escapeRegex(query.search), 'i');
      filter.$or = [
        { title: pattern },
        { description: pattern },
        { service: pattern },
        { monitoringTool: pattern },
        { hosts: pattern },
      ];
    }
    const orderBy = query.order_by ?? 'started_at';
    const asc = (query.sort ?? 'desc') === 'asc';
    // Ranks grow with less criticality, so "ascending" severity/status is descending rank.
    const direction = (RANKED.has(orderBy) ? !asc : asc) ? 1 : -1;
    const sort = { [SORT_FIELDS[orderBy]!]: direction, _id: direction } as const;
    const { total, docs } = await findPage(models.alerts, filter, sort, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(res, 200, docs.map(presentAlert));
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
