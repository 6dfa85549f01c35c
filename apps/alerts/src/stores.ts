import type { Counters, FlushedCache } from '@gl/service-kit';
import type { AlertsModels } from './alerts.models';
import { createAlertsStore } from './alerts.store';
import { createErrorTrackingStore } from './error-tracking.store';
import { createIntegrationsStore } from './integrations.store';
import { createOpsgenieStore } from './opsgenie.store';

/**
 * Every collection the alerts service keeps, each behind its store. Writes to integrations and Opsgenie
 * settings flush `integrationsCache`, which the notify endpoints read them through.
 */
export function createAlertsStores(
  models: AlertsModels,
  counters: Counters,
  integrationsCache: FlushedCache,
) {
  const flush = (): void => integrationsCache.invalidate();
  return {
    alerts: createAlertsStore(models.alerts, counters),
    integrations: createIntegrationsStore(models.integrations, counters, flush),
    opsgenie: createOpsgenieStore(models.opsgenie, flush),
    errorTracking: createErrorTrackingStore(models.errorTracking),
  };
}
