import { httpIntegrationEntity, type InternalContext, type NamespaceContext } from '@gl/contracts';
import type { AlertsHarness } from './alerts.harness';

export const httpIntegrationsPath = (projectId: number): string =>
  `/projects/${projectId}/alert_management/http_integrations`;

export interface IntegrationOptions {
  tier?: InternalContext['tier'];
  /** Body fields over the defaults `{ name: 'Tool', active: true }`. */
  json?: Record<string, unknown>;
}

/** An HTTP integration created through the API, with its notify path and its token (shown only then). */
export async function createHttpIntegration(
  h: AlertsHarness,
  ns: NamespaceContext,
  { tier, json }: IntegrationOptions = {},
) {
  const reply = await h.call('POST', httpIntegrationsPath(ns.id), {
    ns,
    tier,
    json: { name: 'Tool', active: true, ...json },
  });
  const created = httpIntegrationEntity.parse(reply.body);
  return { ...created, path: new URL(created.url).pathname, token: created.token! };
}

export async function deactivateHttpIntegration(h: AlertsHarness, ns: NamespaceContext, id: number) {
  await h.call('PUT', `${httpIntegrationsPath(ns.id)}/${id}`, { ns, json: { active: false } });
}
