import { z } from 'zod';
import { isoTimestamp } from '../primitives';

export const ALERT_STATUSES = ['triggered', 'acknowledged', 'resolved', 'ignored'] as const;
export const ALERT_SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
export const alertStatus = z.enum(ALERT_STATUSES);
export const alertSeverity = z.enum(ALERT_SEVERITIES);

/** An alert integration (HTTP endpoint or Prometheus); `token` only in the create and reset answers. */
export const httpIntegrationEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  active: z.boolean(),
  type: z.enum(['http', 'prometheus']),
  endpoint_identifier: z.string(),
  url: z.string(),
  create_incident: z.boolean(),
  token: z.string().optional(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type HttpIntegrationEntity = z.infer<typeof httpIntegrationEntity>;

/** The Prometheus integration of a project (Alertmanager webhook receiver). */
export const prometheusIntegrationEntity = z.object({
  id: z.number().int(),
  active: z.boolean(),
  api_url: z.string().nullable(),
  url: z.string(),
  token: z.string().optional(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});

/** The Opsgenie link-out (deprecated). */
export const opsgenieEntity = z.object({
  active: z.boolean(),
  api_url: z.string().nullable(),
});

/** What a notify call answers: GitLab's AlertEntity exposes only iid and title. */
export const notifyResultEntity = z.array(z.object({ iid: z.number().int(), title: z.string() }));

export const alertEntity = z.object({
  id: z.number().int(),
  iid: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  severity: alertSeverity,
  status: alertStatus,
  service: z.string().nullable(),
  monitoring_tool: z.string().nullable(),
  hosts: z.array(z.string()),
  started_at: isoTimestamp,
  ended_at: isoTimestamp.nullable(),
  event_count: z.number().int(),
  fingerprint: z.string().nullable(),
  environment: z.object({ name: z.string() }).nullable(),
  payload: z.record(z.string(), z.unknown()),
  issue_iid: z.number().int().nullable(),
  created_at: isoTimestamp,
  updated_at: isoTimestamp,
});
export type AlertEntity = z.infer<typeof alertEntity>;

/** Error-tracking settings; the spec names the external link `tracker_external_url`. */
export const errorTrackingSettingsEntity = z.object({
  active: z.boolean(),
  project_name: z.string().nullable(),
  tracker_external_url: z.string().nullable(),
  api_url: z.string().nullable(),
  integrated: z.boolean(),
});
export type ErrorTrackingSettingsEntity = z.infer<typeof errorTrackingSettingsEntity>;

export const integrationTestResultEntity = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  alerts: notifyResultEntity.optional(),
});
