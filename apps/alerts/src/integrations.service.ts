import { randomBytes } from 'node:crypto';
import type {
  createHttpIntegrationBody,
  opsgenieBody,
  prometheusIntegrationBody,
  updateHttpIntegrationBody,
} from '@gl/contracts';
import { ForbiddenError, ModelError, NotFoundError } from '@gl/service-kit';
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
export class IntegrationsService {
  constructor(
    private readonly integrations: IntegrationsStore,
    private readonly opsgenie: OpsgenieStore,
  ) {}

  async findHttp(projectId: number, id: number): Promise<Integration> {
    const integration = await this.integrations.findHttp(projectId, id);
    if (!integration) throw new NotFoundError('Integration');
    return integration;
  }

  listHttp(projectId: number): Promise<Integration[]> {
    return this.integrations.listHttp(projectId);
  }

  async createHttp(
    projectId: number,
    params: z.infer<typeof createHttpIntegrationBody>,
    single: boolean,
  ): Promise<WithToken> {
    if (single && (await this.integrations.hasHttp(projectId))) throw new ForbiddenError(MULTIPLE_REFUSED);
    await this.checkActivatable(projectId, params.active);
    const { token, tokenHash } = newToken();
    const integration = await this.integrations.create(
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

  async updateHttp(
    integration: Integration,
    params: z.infer<typeof updateHttpIntegrationBody>,
  ): Promise<Integration> {
    await this.checkActivatable(integration.projectId, params.active);
    const changes: IntegrationChanges = {};
    if (params.name !== undefined) changes.name = params.name;
    if (params.active !== undefined) changes.active = params.active;
    if (params.create_incident !== undefined) changes.createIncident = params.create_incident;
    return this.update(integration, changes);
  }

  async resetToken(integration: Integration): Promise<WithToken> {
    const { token, tokenHash } = newToken();
    return { integration: await this.update(integration, { tokenHash }), token };
  }

  remove(integration: Integration): Promise<void> {
    return this.integrations.remove(integration._id);
  }

  async prometheus(projectId: number): Promise<Integration> {
    const integration = await this.integrations.findPrometheus(projectId);
    if (!integration) throw new NotFoundError('Prometheus integration');
    return integration;
  }

  /** PUT prometheus_integration: changes the project's Prometheus integration, creating it the first time. */
  async savePrometheus(
    projectId: number,
    params: z.infer<typeof prometheusIntegrationBody>,
  ): Promise<WithToken> {
    await this.checkActivatable(projectId, params.active);
    const existing = await this.integrations.findPrometheus(projectId);
    if (existing) {
      const changes: IntegrationChanges = { active: params.active };
      if (params.api_url !== undefined) changes.apiUrl = params.api_url || null;
      return { integration: (await this.integrations.update(existing._id, changes)) ?? existing };
    }
    const { token, tokenHash } = newToken();
    const integration = await this.integrations.create({
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

  opsgenieSettings(projectId: number): Promise<OpsgenieSettings> {
    return this.opsgenie.get(projectId);
  }

  async saveOpsgenie(projectId: number, params: z.infer<typeof opsgenieBody>): Promise<OpsgenieSettings> {
    const apiUrl = params.api_url?.trim() || null;
    if (params.active) {
      if (!apiUrl || !/^https?:\/\/[^\s]+$/i.test(apiUrl))
        throw ModelError.fields({ api_url: ['must be a valid URL'] });
      if (await this.integrations.hasActive(projectId)) throw ModelError.error(OPSGENIE_CONFLICT);
    }
    return this.opsgenie.save(projectId, { active: params.active, apiUrl });
  }

  private async checkActivatable(projectId: number, active: boolean | undefined): Promise<void> {
    if (active && (await this.opsgenie.isActive(projectId))) throw ModelError.error(OPSGENIE_CONFLICT);
  }

  private async update(integration: Integration, changes: IntegrationChanges): Promise<Integration> {
    const updated = await this.integrations.update(integration._id, changes);
    if (!updated) throw new NotFoundError('Integration');
    return updated;
  }
}
