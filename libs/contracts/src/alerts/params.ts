import { z } from 'zod';
import { paginationQuery } from '../pagination';
import { booleanParam, recordIdParam } from '../primitives';
import { ALERT_SEVERITIES, ALERT_STATUSES } from './entities';

export const integrationIdParams = z.object({ integration_id: recordIdParam });
export const alertIidParams = z.object({ alert_iid: recordIdParam });

export const createHttpIntegrationBody = z.object({
  name: z.string().min(1).max(255),
  active: booleanParam,
  create_incident: booleanParam.optional(),
});

export const updateHttpIntegrationBody = z.object({
  name: z.string().min(1).max(255).optional(),
  active: booleanParam.optional(),
  create_incident: booleanParam.optional(),
});

export const prometheusIntegrationBody = z.object({
  active: booleanParam,
  api_url: z.string().optional(),
});

export const opsgenieBody = z.object({
  active: booleanParam,
  api_url: z.string().optional(),
});

export const listAlertsQuery = z.object({
  status: z.enum(ALERT_STATUSES).optional(),
  severity: z.enum(ALERT_SEVERITIES).optional(),
  search: z.string().optional(),
  order_by: z.enum(['started_at', 'ended_at', 'severity', 'status', 'event_count', 'created_at']).optional(),
  sort: z.enum(['asc', 'desc']).optional(),
  ...paginationQuery.shape,
});

export const updateAlertBody = z.object({ status: z.enum(ALERT_STATUSES) });

export const patchErrorTrackingBody = z.object({
  active: booleanParam,
  integrated: booleanParam.optional(),
});

export const putErrorTrackingBody = z.object({
  active: booleanParam,
  integrated: booleanParam,
  api_url: z.string().optional(),
  project_name: z.string().optional(),
  token: z.string().optional(),
});
