import type { Counters } from '@gl/service-kit';
import type { AlertsModels } from './alerts.models';
import { createAlertsStore } from './alerts.store';
import { createErrorTrackingStore } from './error-tracking.store';
import { createIntegrationsStore } from './integrations.store';
import { createOpsgenieStore } from './opsgenie.store';

/** Every collection the alerts service keeps, each behind its store. */
export function createAlertsStores(models: AlertsModels, counters: Counters) {
  return {
    alerts: createAlertsStore(models.alerts, counters),
    integrations: createIntegrationsStore(models.integrations, counters),
    opsgenie: createOpsgenieStore(models.opsgenie),
    errorTracking: createErrorTrackingStore(models.errorTracking),
  };
}
export type AlertsStores = ReturnType<typeof createAlertsStores>;
