import type { AlertEntity, ErrorTrackingSettingsEntity, HttpIntegrationEntity } from '@gl/contracts';
import type { Alert } from './alerts.store';
import type { ErrorTrackingSettings } from './error-tracking.store';
import type { Integration } from './integrations.store';
import type { OpsgenieSettings } from './opsgenie.store';

/** ActiveSupport's `parameterize`, as GitLab builds the name segment of a notify URL. */
export function nameSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9\-_]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^-|-$/g, '');
  return slug || 'http-endpoint';
}

export function notifyUrl(externalUrl: string, projectPath: string, integration: Integration): string {
  return integration.type === 'prometheus'
    ? `${externalUrl}/${projectPath}/prometheus/alerts/notify.json`
    : `${externalUrl}/${projectPath}/alerts/notify/${nameSlug(integration.name)}/${integration.endpointIdentifier}.json`;
}

export function presentIntegration(
  integration: Integration,
  externalUrl: string,
  projectPath: string,
  token?: string,
): HttpIntegrationEntity {
  return {
    id: integration._id,
    name: integration.name,
    active: integration.active,
    type: integration.type,
    endpoint_identifier: integration.endpointIdentifier,
    url: notifyUrl(externalUrl, projectPath, integration),
    create_incident: integration.createIncident,
    ...(token ? { token } : {}),
    created_at: integration.createdAt.toISOString(),
    updated_at: integration.updatedAt.toISOString(),
  };
}

export function presentPrometheus(
  integration: Integration,
  externalUrl: string,
  projectPath: string,
  token?: string,
) {
  return {
    id: integration._id,
    active: integration.active,
    api_url: integration.apiUrl,
    url: notifyUrl(externalUrl, projectPath, integration),
    ...(token ? { token } : {}),
    created_at: integration.createdAt.toISOString(),
    updated_at: integration.updatedAt.toISOString(),
  };
}

export function presentOpsgenie(settings: OpsgenieSettings) {
  return { active: settings.active, api_url: settings.apiUrl };
}

export function presentAlert(alert: Alert): AlertEntity {
  return {
    id: alert._id,
    iid: alert.iid,
    title: alert.title,
    description: alert.description,
    severity: alert.severity,
    status: alert.status,
    service: alert.service,
    monitoring_tool: alert.monitoringTool,
    hosts: alert.hosts,
    started_at: alert.startedAt.toISOString(),
    ended_at: alert.endedAt ? alert.endedAt.toISOString() : null,
    event_count: alert.events,
    fingerprint: alert.fingerprint,
    environment: alert.environmentName ? { name: alert.environmentName } : null,
    payload: alert.payload,
    issue_iid: alert.issueIid,
    created_at: alert.createdAt.toISOString(),
    updated_at: alert.updatedAt.toISOString(),
  };
}

/** GitLab derives the tracker's web URL from the API URL by dropping `api/0/projects/`. */
export function presentErrorTracking(doc: ErrorTrackingSettings): ErrorTrackingSettingsEntity {
  return {
    active: doc.active,
    project_name: doc.projectName ?? null,
    tracker_external_url: doc.apiUrl ? doc.apiUrl.replace('api/0/projects/', '') : null,
    api_url: doc.apiUrl ?? null,
    integrated: doc.integrated,
  };
}
