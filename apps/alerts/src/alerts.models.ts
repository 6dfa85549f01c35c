import type { Connection, Model } from 'mongoose';
import { addOutboxFields, defineModel, documentSchema } from '@gl/service-kit';
import type { ALERT_SEVERITIES, ALERT_STATUSES } from '@gl/contracts';

export type IntegrationType = 'http' | 'prometheus';

export interface IntegrationDoc {
  _id: number;
  projectId: number;
  type: IntegrationType;
  name: string;
  active: boolean;
  endpointIdentifier: string;
  /** SHA-256 of the token; the token itself is shown once and never stored. */
  tokenHash: string;
  createIncident: boolean;
  apiUrl: string | null;
  /** Unique per project: `prometheus` for the single Prometheus integration, `http:<id>` otherwise. */
  slot: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface AlertDoc {
  _id: number;
  projectId: number;
  iid: number;
  integrationId: number | null;
  title: string;
  description: string | null;
  severity: (typeof ALERT_SEVERITIES)[number];
  /** Sort keys: 0 = most critical / triggered. */
  severityRank: number;
  status: (typeof ALERT_STATUSES)[number];
  statusRank: number;
  service: string | null;
  monitoringTool: string | null;
  hosts: string[];
  startedAt: Date;
  endedAt: Date | null;
  events: number;
  fingerprint: string | null;
  /**
   * Unique per project: `fp:<fingerprint>` while the alert is unresolved and has a fingerprint, else `id:<_id>`.
   * The unique index is what lets concurrent identical payloads create one alert only.
   */
  openKey: string;
  environmentName: string | null;
  /** The payload as JSON text: custom fields may hold keys FerretDB refuses (`.`, `$`). */
  payload: string;
  issueId: number | null;
  issueIid: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface OpsgenieDoc {
  _id: number;
  active: boolean;
  apiUrl: string | null;
}

export interface ErrorTrackingDoc {
  _id: number;
  active: boolean;
  integrated: boolean;
  apiUrl: string | null;
  projectName: string | null;
  /** Write-only; never rendered. */
  token: string | null;
  updatedAt: Date;
}

export interface AlertsModels {
  integrations: Model<IntegrationDoc>;
  alerts: Model<AlertDoc>;
  opsgenie: Model<OpsgenieDoc>;
  errorTracking: Model<ErrorTrackingDoc>;
}

const integrationSchema = documentSchema<IntegrationDoc>({
  _id: Number,
  projectId: { type: Number, required: true },
  type: { type: String, required: true },
  name: { type: String, required: true },
  active: { type: Boolean, required: true },
  endpointIdentifier: { type: String, required: true },
  tokenHash: { type: String, required: true },
  createIncident: { type: Boolean, default: false },
  apiUrl: { type: String, default: null },
  slot: { type: String, required: true },
  createdAt: Date,
  updatedAt: Date,
});
integrationSchema.index({ projectId: 1, slot: 1 }, { unique: true });
integrationSchema.index({ projectId: 1, endpointIdentifier: 1 });

const alertSchema = documentSchema<AlertDoc>({
  _id: Number,
  projectId: { type: Number, required: true },
  iid: { type: Number, required: true },
  integrationId: { type: Number, default: null },
  title: String,
  description: { type: String, default: null },
  severity: String,
  severityRank: Number,
  status: String,
  statusRank: Number,
  service: { type: String, default: null },
  monitoringTool: { type: String, default: null },
  hosts: [String],
  startedAt: Date,
  endedAt: { type: Date, default: null },
  events: Number,
  fingerprint: { type: String, default: null },
  openKey: { type: String, required: true },
  environmentName: { type: String, default: null },
  payload: String,
  issueId: { type: Number, default: null },
  issueIid: { type: Number, default: null },
  createdAt: Date,
  updatedAt: Date,
});
alertSchema.index({ projectId: 1, openKey: 1 }, { unique: true });
alertSchema.index({ projectId: 1, iid: 1 }, { unique: true });
addOutboxFields(alertSchema);

const opsgenieSchema = documentSchema<OpsgenieDoc>({
  _id: Number,
  active: Boolean,
  apiUrl: { type: String, default: null },
});

const errorTrackingSchema = documentSchema<ErrorTrackingDoc>({
  _id: Number,
  active: Boolean,
  integrated: Boolean,
  apiUrl: { type: String, default: null },
  projectName: { type: String, default: null },
  token: { type: String, default: null },
  updatedAt: Date,
});

export function createAlertsModels(connection: Connection): AlertsModels {
  return {
    integrations: defineModel(connection, 'AlertIntegration', integrationSchema, 'integrations'),
    alerts: defineModel(connection, 'Alert', alertSchema, 'alerts'),
    opsgenie: defineModel(connection, 'Opsgenie', opsgenieSchema, 'opsgenie'),
    errorTracking: defineModel(
      connection,
      'ErrorTrackingSetting',
      errorTrackingSchema,
      'error_tracking_settings',
    ),
  };
}
