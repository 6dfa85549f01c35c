import { Router, type Request } from 'express';
import {
  ACCESS_LEVELS,
  createHttpIntegrationBody,
  integrationIdParams,
  opsgenieBody,
  prometheusIntegrationBody,
  updateHttpIntegrationBody,
  type NamespaceContext,
} from '@gl/contracts';
import {
  ModelError,
  collectParams,
  isHigherTier,
  parseParams,
  sendJson,
  sendNoContent,
} from '@gl/service-kit';
import { mapGenericPayload } from './alert-payload';
import { projectWith } from './alerts.access';
import type { AlertsService } from './alerts.service';
import type { IntegrationsService, WithToken } from './integrations.service';
import { presentIntegration, presentOpsgenie, presentPrometheus } from './presenters';

export function createIntegrationsRouter(
  integrations: IntegrationsService,
  alerts: AlertsService,
  producer: string,
): Router {
  const router = Router();
  const base = '/projects/:id/alert_management';

  const findHttp = (req: Request, ns: NamespaceContext) =>
    integrations.findHttp(ns.id, parseParams(integrationIdParams, req.params).integration_id);

  const present = (req: Request, ns: NamespaceContext, { integration, token }: WithToken) =>
    presentIntegration(integration, req.ctx.externalUrl, ns.fullPath, token);

  const prometheus = (req: Request, ns: NamespaceContext, { integration, token }: WithToken) =>
    presentPrometheus(integration, req.ctx.externalUrl, ns.fullPath, token);

  router.get(`${base}/http_integrations`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const list = await integrations.listHttp(ns.id);
    sendJson(
      res,
      200,
      list.map((integration) => present(req, ns, { integration })),
    );
  });

  router.post(`${base}/http_integrations`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(createHttpIntegrationBody, collectParams(req));
    sendJson(
      res,
      201,
      present(req, ns, await integrations.createHttp(ns.id, params, !isHigherTier(req.ctx))),
    );
  });

  router.get(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, present(req, ns, { integration: await findHttp(req, ns) }));
  });

  router.put(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(req, ns);
    const params = parseParams(updateHttpIntegrationBody, collectParams(req));
    sendJson(res, 200, present(req, ns, { integration: await integrations.updateHttp(integration, params) }));
  });

  router.delete(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    await integrations.remove(await findHttp(req, ns));
    sendNoContent(res);
  });

  router.post(`${base}/http_integrations/:integration_id/reset_token`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(req, ns);
    sendJson(res, 200, present(req, ns, await integrations.resetToken(integration)));
  });

  /**
   * A test alert runs the real ingestion path with a sample payload: the JSON body itself, or a `payload`
   * string holding JSON (invalid JSON → an error message, nothing stored).
   */
  router.post(`${base}/http_integrations/:integration_id/test`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.developer);
    const integration = await findHttp(req, ns);
    const raw: unknown = req.body;
    let payload: unknown = raw;
    if (raw && typeof raw === 'object' && typeof (raw as { payload?: unknown }).payload === 'string') {
      try {
        payload = JSON.parse((raw as { payload: string }).payload);
      } catch {
        throw ModelError.error('Test payload is not valid JSON');
      }
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload))
      throw ModelError.error('Test payload must be a JSON object');
    const body = payload as Record<string, unknown>;
    const alert = await alerts.ingest(integration, mapGenericPayload(body, isHigherTier(req.ctx)), body, {
      producer,
      correlationId: req.ctx.requestId,
    });
    if (!alert) throw ModelError.error('The test alert resolves no open alert');
    sendJson(res, 200, { success: true, alerts: [{ iid: alert.iid, title: alert.title }] });
  });

  router.get(`${base}/prometheus_integration`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, prometheus(req, ns, { integration: await integrations.prometheus(ns.id) }));
  });

  router.put(`${base}/prometheus_integration`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(prometheusIntegrationBody, collectParams(req));
    sendJson(res, 200, prometheus(req, ns, await integrations.savePrometheus(ns.id, params)));
  });

  router.get(`${base}/opsgenie`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, presentOpsgenie(await integrations.opsgenieSettings(ns.id)));
  });

  router.put(`${base}/opsgenie`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(opsgenieBody, collectParams(req));
    sendJson(res, 200, presentOpsgenie(await integrations.saveOpsgenie(ns.id, params)));
  });

  return router;
}
