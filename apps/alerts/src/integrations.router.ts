import { createHash, randomBytes } from 'node:crypto';
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
  isDuplicateKeyError,
  isHigherTier,
  parseParams,
  sendJson,
  sendNoContent,
  type Counters,
} from '@gl/service-kit';
import { mapGenericPayload } from './alert-payload';
import { projectWith } from './alerts.access';
import type { AlertsModels, IntegrationDoc } from './alerts.models';
import type { AlertsService } from './alerts.service';
import { presentIntegration, notifyUrl } from './presenters';

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
const newToken = (): string => randomBytes(16).toString('hex');
const MULTIPLE_REFUSED = 'Multiple HTTP integrations are not supported for this project';
const OPSGENIE_CONFLICT = 'No other alert integration can be active while the Opsgenie integration is active';

export function createIntegrationsRouter(
  models: AlertsModels,
  counters: Counters,
  alerts: AlertsService,
  producer: string,
): Router {
  const router = Router();
  const base = '/projects/:id/alert_management';

  async function opsgenieActive(projectId: number): Promise<boolean> {
    return Boolean(await models.opsgenie.exists({ _id: projectId, active: true }));
  }

  async function findHttp(req: Request, ns: NamespaceContext): Promise<IntegrationDoc> {
    const { integration_id } = parseParams(integrationIdParams, req.params);
    const integration = await models.integrations
      .findOne({ _id: integration_id, projectId: ns.id, type: 'http' })
      .lean<IntegrationDoc>();
    if (!integration) throw new NotFoundError('Integration');
    return integration;
  }

  const present = (req: Request, ns: NamespaceContext, doc: IntegrationDoc, token?: string) =>
    presentIntegration(doc, req.ctx.externalUrl, ns.fullPath, token);

  router.get(`${base}/http_integrations`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const docs = await models.integrations
      .find({ projectId: ns.id, type: 'http' })
      .sort({ _id: 1 })
      .lean<IntegrationDoc[]>();
    sendJson(
      res,
      200,
      docs.map((doc) => present(req, ns, doc)),
    );
  });

  router.post(`${base}/http_integrations`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(createHttpIntegrationBody, collectParams(req));
    const single = !isHigherTier(req.ctx);
    if (single && (await models.integrations.exists({ projectId: ns.id, type: 'http' })))
      throw new ForbiddenError(MULTIPLE_REFUSED);
    if (params.active && (await opsgenieActive(ns.id))) throw ModelError.error(OPSGENIE_CONFLICT);
    const id = await counters.next('integrations');
    const token = newToken();
    const now = new Date();
    const doc: IntegrationDoc = {
      _id: id,
      projectId: ns.id,
      type: 'http',
      name: params.name,
      active: params.active,
      endpointIdentifier: randomBytes(8).toString('hex'),
      tokenHash: hashToken(token),
      createIncident: params.create_incident ?? false,
      apiUrl: null,
      // On free, the one endpoint takes a fixed slot, so concurrent creations cannot both succeed.
      slot: single ? 'http' : `http:${id}`,
      createdAt: now,
      updatedAt: now,
    };
    try {
      await models.integrations.create(doc);
    } catch (err) {
      if (isDuplicateKeyError(err)) throw new ForbiddenError(MULTIPLE_REFUSED);
      throw err;
    }
    sendJson(res, 201, present(req, ns, doc, token));
  });

  router.get(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, present(req, ns, await findHttp(req, ns)));
  });

  router.put(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(req, ns);
    const params = parseParams(updateHttpIntegrationBody, collectParams(req));
    if (params.active && (await opsgenieActive(ns.id))) throw ModelError.error(OPSGENIE_CONFLICT);
    const $set: Partial<IntegrationDoc> = { updatedAt: new Date() };
    if (params.name !== undefined) $set.name = params.name;
    if (params.active !== undefined) $set.active = params.active;
    if (params.create_incident !== undefined) $set.createIncident = params.create_incident;
    const updated = await models.integrations
      .findOneAndUpdate({ _id: integration._id }, { $set }, { new: true })
      .lean<IntegrationDoc>();
    if (!updated) throw new NotFoundError('Integration');
    sendJson(res, 200, present(req, ns, updated));
  });

  router.delete(`${base}/http_integrations/:integration_id`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(req, ns);
    await models.integrations.deleteOne({ _id: integration._id });
    sendNoContent(res);
  });

  router.post(`${base}/http_integrations/:integration_id/reset_token`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(req, ns);
    const token = newToken();
    const updated = await models.integrations
      .findOneAndUpdate(
        { _id: integration._id },
        { $set: { tokenHash: hashToken(token), updatedAt: new Date() } },
        { new: true },
      )
      .lean<IntegrationDoc>();
    if (!updated) throw new NotFoundError('Integration');
    sendJson(res, 200, present(req, ns, updated, token));
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
    const doc = await models.integrations
      .findOne({ projectId: ns.id, slot: 'prometheus' })
      .lean<IntegrationDoc>();
    if (!doc) throw new NotFoundError('Prometheus integration');
    sendJson(res, 200, presentPrometheus(doc, req.ctx.externalUrl, ns.fullPath));
  });

  router.put(`${base}/prometheus_integration`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(prometheusIntegrationBody, collectParams(req));
    if (params.active && (await opsgenieActive(ns.id))) throw ModelError.error(OPSGENIE_CONFLICT);
    const existing = await models.integrations
      .findOne({ projectId: ns.id, slot: 'prometheus' })
      .lean<IntegrationDoc>();
    const now = new Date();
    if (existing) {
      const $set: Partial<IntegrationDoc> = { active: params.active, updatedAt: now };
      if (params.api_url !== undefined) $set.apiUrl = params.api_url || null;
      const updated = await models.integrations
        .findOneAndUpdate({ _id: existing._id }, { $set }, { new: true })
        .lean<IntegrationDoc>();
      sendJson(res, 200, presentPrometheus(updated ?? existing, req.ctx.externalUrl, ns.fullPath));
      return;
    }
    const token = newToken();
    const doc: IntegrationDoc = {
      _id: await counters.next('integrations'),
      projectId: ns.id,
      type: 'prometheus',
      name: 'Prometheus',
      active: params.active,
      endpointIdentifier: 'prometheus',
      tokenHash: hashToken(token),
      createIncident: false,
      apiUrl: params.api_url || null,
      slot: 'prometheus',
      createdAt: now,
      updatedAt: now,
    };
    await models.integrations.create(doc);
    sendJson(res, 200, presentPrometheus(doc, req.ctx.externalUrl, ns.fullPath, token));
  });

  router.get(`${base}/opsgenie`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const doc = await models.opsgenie.findById(ns.id).lean();
    sendJson(res, 200, { active: doc?.active ?? false, api_url: doc?.apiUrl ?? null });
  });

  router.put(`${base}/opsgenie`, async (req, res) => {
    const ns = projectWith(req.ctx, ACCESS_LEVELS.maintainer);
    const params = parseParams(opsgenieBody, collectParams(req));
    const apiUrl = params.api_url?.trim() || null;
    if (params.active) {
      if (!apiUrl || !/^https?:\/\/[^\s]+$/i.test(apiUrl))
        throw ModelError.fields({ api_url: ['must be a valid URL'] });
      if (await models.integrations.exists({ projectId: ns.id, active: true }))
        throw ModelError.error(OPSGENIE_CONFLICT);
    }
    const doc = await models.opsgenie
      .findOneAndUpdate(
        { _id: ns.id },
        { $set: { active: params.active, apiUrl } },
        { upsert: true, new: true },
      )
      .lean();
    sendJson(res, 200, { active: doc?.active ?? params.active, api_url: doc?.apiUrl ?? apiUrl });
  });

  return router;
}

function presentPrometheus(doc: IntegrationDoc, externalUrl: string, projectPath: string, token?: string) {
  return {
    id: doc._id,
    active: doc.active,
    api_url: doc.apiUrl,
    url: notifyUrl(externalUrl, projectPath, doc),
    ...(token ? { token } : {}),
    created_at: doc.createdAt.toISOString(),
    updated_at: doc.updatedAt.toISOString(),
  };
}
