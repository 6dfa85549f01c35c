import {
  DOMAIN_EVENT_TYPES,
  alertCreatedData,
  alertResolvedData,
  type AlertStateData,
  type EventEnvelope,
} from '@gl/contracts';
import { eventData } from '@gl/service-kit';
import { projectHookAttrs, type PayloadProject } from './project';

const A = DOMAIN_EVENT_TYPES.alerts;

/**
 * The alert events hooks deliver (beyond GitLab, `alert_events`) and the action each is: an alert recorded,
 * a status other than resolved set on it (alerts.service.ts `setStatus`), an alert resolved (by a payload's
 * end time or through the API).
 */
export const ALERT_ACTIONS: Record<string, string> = {
  [A.alertCreated]: 'create',
  [A.alertUpdated]: 'update',
  [A.alertResolved]: 'resolve',
};

/**
 * What an event says of its alert. alert.updated always carries `state`; alert.created and alert.resolved
 * carry it since it exists, and what an older one lacks is null (its title and severity from
 * alert.created's own fields, the status its event implies).
 */
function alertOf(event: EventEnvelope): { iid: number; state: Partial<AlertStateData> } {
  // alert.updated has alert.resolved's fields with `state` required: one schema reads all three.
  const data = eventData(alertResolvedData, event);
  if (data.state) return { iid: data.alertIid, state: data.state };
  if (event.type === A.alertCreated) {
    const created = eventData(alertCreatedData, event);
    const { title, severity } = created;
    return { iid: data.alertIid, state: { title, severity, status: 'triggered' } };
  }
  return { iid: data.alertIid, state: { status: 'resolved' } };
}

/**
 * Beyond GitLab: an Alert Hook's payload (X-Gitlab-Event `Alert Hook`). GitLab sends alerts to
 * integrations only, built by Gitlab::DataBuilder::Alert (lib/gitlab/data_builder/alert.rb: `object_kind:
 * 'alert'`, `object_attributes` title, url, severity, events, status, started_at) when an alert is created
 * (AlertManagement::Alert#execute_integrations, app/models/alert_management/alert.rb). Here those
 * attributes with the alert's others (iid, ended_at, monitoring_tool, service, hosts, environment, as
 * app/graphql/types/alert_management/alert_type.rb has them, snake_cased), `event_type` and `project` as
 * the other hooks' payloads have them, and `action` in `object_attributes` as issuable payloads have it:
 * `create`, `update` (triggered, acknowledged, ignored) or `resolve`. No `user`: an alert is recorded by a
 * monitoring tool.
 */
export function alertPayload(event: EventEnvelope, project: PayloadProject, externalUrl: string) {
  const { iid, state } = alertOf(event);
  const attrs = projectHookAttrs(project, externalUrl);
  return {
    object_kind: 'alert',
    event_type: 'alert',
    project: attrs,
    object_attributes: {
      iid,
      title: state.title ?? null,
      // details_project_alert_management_url(alert.project, alert.iid)
      url: `${attrs.web_url}/-/alert_management/${iid}/details`,
      severity: state.severity ?? null,
      events: state.events ?? null,
      status: state.status ?? null,
      started_at: state.startedAt ?? null,
      ended_at: state.endedAt ?? null,
      monitoring_tool: state.monitoringTool ?? null,
      service: state.service ?? null,
      hosts: state.hosts ?? [],
      environment: state.environmentName ? { name: state.environmentName } : null,
      action: ALERT_ACTIONS[event.type]!,
    },
  };
}
