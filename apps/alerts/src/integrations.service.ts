import { randomBytes } from 'node:crypto';
import type {
  createHttpIntegrationBody,
  opsgenieBody,
  prometheusIntegrationBody,
  updateHttpIntegrationBody,
} from '@gl/contracts';
import { ForbiddenError, ModelError, NotFoundError, type PageRequest } from '@gl/service-kit';
import type { z } from 'zod';
import { newToken } from './integration-token';
import type { Integration, IntegrationChanges, IntegrationsStore } from './integrations.store';
import type { OpsgenieSettings, OpsgenieStore } from './opsgenie.store';

const MULTIPLE_REFUSED = 'Multiple HTTP integrations are not supported for this project';
const OPSGENIE_CONFLICT = 'No other alert integration can be active while the Opsgenie integration is active';

/** An integration and, when it was just created or reset, its token (shown this once only). */
export interface WithToken {
  integration: Integration;
  token?: string;
}

/**
 * Alert integrations (GitLab's AlertManagement::HttpIntegrations and Prometheus services): on tiers
 * without multiple integrations a project has one HTTP endpoint; the Opsgenie link-out excludes every
 * other active integration.
 */
export function createIntegrationsService(integrations: IntegrationsStore, opsgenie: OpsgenieStore) {
  async function findHttp(projectId: number, id: number): Promise<Integration> {
    const integration = await integrations.findHttp(projectId, id);
    if (!integration) throw new NotFoundError('Integration');
    return integration;
  }

  function pageOfHttp(
    projectId: number,
    page: PageRequest,
  ): Promise<{ items: Integration[]; total: number }> {
    return integrations.pageOfHttp(projectId, page.skip, page.perPage);
  }

  async function createHttp(
    projectId: number,
    params: z.infer<typeof createHttpIntegrationBody>,
    single: boolean,
  ): Promise<WithToken> {
    if (single && (await integrations.hasHttp(projectId))) throw new ForbiddenError(MULTIPLE_REFUSED);
    await checkActivatable(projectId, params.active);
    const { token, tokenHash } = newToken();
    const integration = await integrations.create(
      {
        projectId,
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
    if (!integration) throw new ForbiddenError(MULTIPLE_REFUSED);
    return { integration, token };
  }

  async function updateHttp(
    integration: Integration,
    params: z.infer<typeof updateHttpIntegrationBody>,
  ): Promise<Integration> {
    await checkActivatable(integration.projectId, params.active);
    const changes: IntegrationChanges = {};
    if (params.name !== undefined) changes.name = params.name;
    if (params.active !== undefined) changes.active = params.active;
    if (params.create_incident !== undefined) changes.createIncident = params.create_incident;
    return update(integration, changes);
  }

  async function resetToken(integration: Integration): Promise<WithToken> {
    const { token, tokenHash } = newToken();
    return { integration: await update(integration, { tokenHash }), token };
  }

  function remove(integration: Integration): Promise<void> {
    return integrations.remove(integration._id);
  }

  async function prometheus(projectId: number): Promise<Integration> {
    const integration = await integrations.findPrometheus(projectId);
    if (!integration) throw new NotFoundError('Prometheus integration');
    return integration;
  }

  /** PUT prometheus_integration: changes the project's Prometheus integration, creating it the first time. */
  async function savePrometheus(
    projectId: number,
    params: z.infer<typeof prometheusIntegrationBody>,
  ): Promise<WithToken> {
    await checkActivatable(projectId, params.active);
    const existing = await integrations.findPrometheus(projectId);
    if (existing) {
      const changes: IntegrationChanges = { active: params.active };
      if (params.api_url !== undefined) changes.apiUrl = params.api_url || null;
      return { integration: (await integrations.update(existing._id, changes)) ?? existing };
    }
    const { token, tokenHash } = newToken();
    const integration = await integrations.create({
      projectId,
      type: 'prometheus',
      name: 'Prometheus',
      active: params.active,
      endpointIdentifier: 'prometheus',
      tokenHash,
      createIncident: false,
      apiUrl: params.api_url || null,
    });
    return { integration: integration!, token };
  }

  function opsgenieSettings(projectId: number): Promise<OpsgenieSettings> {
    return opsgenie.get(projectId);
  }

  async function saveOpsgenie(
    projectId: number,
    params: z.infer<typeof opsgenieBody>,
  ): Promise<OpsgenieSettings> {
    const apiUrl = params.api_url?.trim() || null;
    if (params.active) {
      if (!apiUrl || !/^https?:\/\/[^\s]+$/i.test(apiUrl))
        throw ModelError.fields({ api_url: ['must be a valid URL'] });
      if (await integrations.hasActive(projectId)) throw ModelError.error(OPSGENIE_CONFLICT);
    }
    return opsgenie.save(projectId, { active: params.active, apiUrl });
  }

  async function checkActivatable(projectId: number, active: boolean | undefined): Promise<void> {
    if (active && (await opsgenie.isActive(projectId))) throw ModelError.error(OPSGENIE_CONFLICT);
  }

  async function update(integration: Integration, changes: IntegrationChanges): Promise<Integration> {
    const updated = await integrations.update(integration._id, changes);
    if (!updated) throw new NotFoundError('Integration');
    return updated;
  }

  return {
    findHttp,
    pageOfHttp,
    createHttp,
    updateHttp,
    resetToken,
    remove,
    prometheus,
    savePrometheus,
    opsgenieSettings,
    saveOpsgenie,
  };
}
export type IntegrationsService = ReturnType<typeof createIntegrationsService>;
