import { randomBytes } from 'node:crypto';
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
  ForbiddenError,
  ModelError,
  NotFoundError,
  collectParams,
  isHigherTier,
  parseParams,
  sendJson,
  sendNoContent,
} from '@gl/service-kit';
import { mapGenericPayload } from './alert-payload';
import { projectWith } from './alerts.access';
import type { AlertsService } from './alerts.service';
import { newToken } from './integration-token';
import type { Integration, IntegrationChanges } from './integrations.store';
import { presentIntegration, presentOpsgenie, presentPrometheus } from './presenters';
import type { AlertsStores } from './stores';

const MULTIPLE_REFUSED = 'Multiple HTTP integrations are not supported for this project';
const OPSGENIE_CONFLICT = 'No other alert integration can be active while the Opsgenie integration is active';

export function createIntegrationsRouter(
  { integrations, opsgenie }: Pick<AlertsStores, 'integrations' | 'opsgenie'>,
  alerts: AlertsService,
  producer: string,
): Router {
  const router = Router();
  const base = '/projects/:id/alert_management';

  /** Opsgenie's link-out excludes every other active integration. */
  async function checkActivatable(projectId: number, active: boolean | undefined): Promise<void> {
    if (active && (await opsgenie.isActive(projectId))) throw ModelError.error(OPSGENIE_CONFLICT);
  }

  async function findHttp(req: Request, ns: NamespaceContext): Promise<Integration> {
    const { integration_id } = parseParams(integrationIdParams, req.params);
    const integration = await integrations.findHttp(ns.id, integration_id);
    if (!integration) throw new NotFoundError('Integration');
    return integration;
  }

  async function update(integration: Integration, changes: IntegrationChanges): Promise<Integration> {
    const updated = await integrations.update(integration._id, changes);
    if (!updated) throw new NotFoundError('Integration');
    return updated;
  }

  const present = (req: Request, ns: NamespaceContext, integration: Integration, token?: string) =>
    presentIntegration(integration, req.ctx.externalUrl, ns.fullPath, token);

  router.get(`${base}/http_integrations`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const list = await integrations.listHttp(ns.id);
    sendJson(
      res,
      200,
      list.map((integration) => present(req, ns, integration)),
    );
  });

  router.post(`${base}/http_integrations`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(createHttpIntegrationBody, collectParams(req));
    const single = !isHigherTier(req.ctx);
    if (single && (await integrations.hasHttp(ns.id))) throw new ForbiddenError(MULTIPLE_REFUSED);
    await checkActivatable(ns.id, params.active);
    const { token, tokenHash } = newToken();
    const created = await integrations.create(
      {
        projectId: ns.id,
        type: 'http',
        name: params.name,
        active: params.active,
        endpointIdentifier: randomBytes(8).toString('hex'),
        tokenHash,
        createIncident: params.create_incident ?? false,
        apiUrl: null,
      },
      single,
    );
    if (!created) throw new ForbiddenError(MULTIPLE_REFUSED);
    sendJson(res, 201, present(req, ns, created, token));
  });

  router.get(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, present(req, ns, await findHttp(req, ns)));
  });

  router.put(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(req, ns);
    const params = parseParams(updateHttpIntegrationBody, collectParams(req));
    await checkActivatable(ns.id, params.active);
    const changes: IntegrationChanges = {};
    if (params.name !== undefined) changes.name = params.name;
    if (params.active !== undefined) changes.active = params.active;
    if (params.create_incident !== undefined) changes.createIncident = params.create_incident;
    sendJson(res, 200, present(req, ns, await update(integration, changes)));
  });

  router.delete(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(req, ns);
    await integrations.remove(integration._id);
    sendNoContent(res);
  });

  router.post(`${base}/http_integrations/:integration_id/reset_token`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(req, ns);
    const { token, tokenHash } = newToken();
    sendJson(res, 200, present(req, ns, await update(integration, { tokenHash }), token));
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
    const integration = await integrations.findPrometheus(ns.id);
    if (!integration) throw new NotFoundError('Prometheus integration');
    sendJson(res, 200, presentPrometheus(integration, req.ctx.externalUrl, ns.fullPath));
  });

  router.put(`${base}/prometheus_integration`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(prometheusIntegrationBody, collectParams(req));
    await checkActivatable(ns.id, params.active);
    const existing = await integrations.findPrometheus(ns.id);
    if (existing) {
      const changes: IntegrationChanges = { active: params.active };
      if (params.api_url !== undefined) changes.apiUrl = params.api_url || null;
      const updated = await integrations.update(existing._id, changes);
      sendJson(res, 200, presentPrometheus(updated ?? existing, req.ctx.externalUrl, ns.fullPath));
      return;
    }
    const { token, tokenHash } = newToken();
    const created = await integrations.create({
      projectId: ns.id,
      type: 'prometheus',
      name: 'Prometheus',
      active: params.active,
      endpointIdentifier: 'prometheus',
      tokenHash,
      createIncident: false,
      apiUrl: params.api_url || null,
    });
    sendJson(res, 200, presentPrometheus(created!, req.ctx.externalUrl, ns.fullPath, token));
  });

  router.get(`${base}/opsgenie`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, presentOpsgenie(await opsgenie.get(ns.id)));
  });

  router.put(`${base}/opsgenie`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(opsgenieBody, collectParams(req));
    const apiUrl = params.api_url?.trim() || null;
    if (params.active) {
      if (!apiUrl || !/^https?:\/\/[^\s]+$/i.test(apiUrl))
        throw ModelError.fields({ api_url: ['must be a valid URL'] });
      if (await integrations.hasActive(ns.id)) throw ModelError.error(OPSGENIE_CONFLICT);
    }
    sendJson(res, 200, presentOpsgenie(await opsgenie.save(ns.id, { active: params.active, apiUrl })));
  });

  return router;
}
