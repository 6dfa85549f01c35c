import { Router } from 'express';
import { ACCESS_LEVELS, ALERTS_API, type InternalContext, type NamespaceContext } from '@gl/contracts';
import {
  ModelError,
  isHigherTier,
  readPageRequest,
  requestOrigin,
  route,
  sendJson,
  sendNoContent,
  setPaginationHeaders,
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

  // The integration id comes from the path alone (`pathParams()`), parsed and looked up (a 404) before the
  // body is, as GitLab's `find_integration!` runs first.
  const findHttp = (ns: NamespaceContext, { integration_id }: { integration_id: number }) =>
    integrations.findHttp(ns.id, integration_id);

  const present = (ctx: InternalContext, ns: NamespaceContext, { integration, token }: WithToken) =>
    presentIntegration(integration, ctx.externalUrl, ns.fullPath, token);

  const prometheus = (ctx: InternalContext, ns: NamespaceContext, { integration, token }: WithToken) =>
    presentPrometheus(integration, ctx.externalUrl, ns.fullPath, token);

  route(router, ALERTS_API.listAlertHttpIntegrations, async ({ req, res, ctx, params }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    params();
    const page = readPageRequest(req.query);
    const { items, total } = await integrations.pageOfHttp(ns.id, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      items.map((integration) => present(ctx, ns, { integration })),
    );
  });

  route(router, ALERTS_API.createAlertHttpIntegration, async ({ res, ctx, params }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    const created = params();
    sendJson(res, 201, present(ctx, ns, await integrations.createHttp(ns.id, created, !isHigherTier(ctx))));
  });

  route(router, ALERTS_API.getAlertHttpIntegration, async ({ res, ctx, pathParams }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, present(ctx, ns, { integration: await findHttp(ns, pathParams()) }));
  });

  route(router, ALERTS_API.updateAlertHttpIntegration, async ({ res, ctx, params, pathParams }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(ns, pathParams());
    const changes = params();
    sendJson(
      res,
      200,
      present(ctx, ns, { integration: await integrations.updateHttp(integration, changes) }),
    );
  });

  route(router, ALERTS_API.deleteAlertHttpIntegration, async ({ res, ctx, pathParams }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    await integrations.remove(await findHttp(ns, pathParams()));
    sendNoContent(res);
  });

  route(router, ALERTS_API.resetAlertHttpIntegrationToken, async ({ res, ctx, pathParams }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    const integration = await findHttp(ns, pathParams());
    sendJson(res, 200, present(ctx, ns, await integrations.resetToken(integration)));
  });

  /**
   * A test alert runs the real ingestion path with a sample payload: the JSON body itself, or a `payload`
   * string holding JSON (invalid JSON → an error message, nothing stored).
   */
  route(router, ALERTS_API.testAlertHttpIntegration, async ({ req, res, ctx, pathParams }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.developer);
    const integration = await findHttp(ns, pathParams());
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
    const mapped = mapGenericPayload(body, isHigherTier(ctx));
    const alert = await alerts.ingest(integration, mapped, body, requestOrigin(producer, ctx));
    if (!alert) throw ModelError.error('The test alert resolves no open alert');
    sendJson(res, 200, { success: true, alerts: [{ iid: alert.iid, title: alert.title }] });
  });

  route(router, ALERTS_API.getPrometheusIntegration, async ({ res, ctx }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, prometheus(ctx, ns, { integration: await integrations.prometheus(ns.id) }));
  });

  route(router, ALERTS_API.putPrometheusIntegration, async ({ res, ctx, params }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    const settings = params();
    sendJson(res, 200, prometheus(ctx, ns, await integrations.savePrometheus(ns.id, settings)));
  });

  route(router, ALERTS_API.getOpsgenieIntegration, async ({ res, ctx }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    sendJson(res, 200, presentOpsgenie(await integrations.opsgenieSettings(ns.id)));
  });

  route(router, ALERTS_API.putOpsgenieIntegration, async ({ res, ctx, params }) => {
    const ns = projectWith(ctx, ACCESS_LEVELS.maintainer);
    const settings = params();
    sendJson(res, 200, presentOpsgenie(await integrations.saveOpsgenie(ns.id, settings)));
  });

  return router;
}
