import { z } from 'zod';
import { ALERTS_ENDPOINTS, booleanParam, type EndpointContract } from '@gl/contracts';
import {
  createCounters,
  createRuntimeHttpApp,
  withIdBlocks,
  type ServiceInstance,
  type ServiceRuntime,
  type BaseServiceConfig,
} from '@gl/service-kit';
import { createAlertsModels } from './alerts.models';
import { createAlertsRouter } from './alerts.router';
import { createAlertsService, type AlertsService } from './alerts.service';
import { createErrorTrackingRouter } from './error-tracking.router';
import { createErrorTrackingService } from './error-tracking.service';
import { createIncidentsSubscription } from './incidents.subscription';
import { createIntegrationsRouter } from './integrations.router';
import { createIntegrationsService } from './integrations.service';
import { createIntegrationsCache, createNotifyLookup, shareIntegrationsCache } from './notify-lookup';
import { createNotifyRouter } from './notify.router';
import { createAlertsStores } from './stores';

export const SERVICE_NAME = 'alerts';

/** Extra configuration: the notify throttle (off by default, as GitLab's) and the SSRF escape hatch. */
export const alertsConfigSchema = z.object({
  ALERTS_NOTIFY_RATE_LIMIT: z.coerce.number().int().min(0).default(0),
  ALERTS_NOTIFY_RATE_PERIOD_SECONDS: z.coerce.number().int().positive().default(3600),
  ALERTS_ALLOW_LOCAL_REQUESTS: z.preprocess((v) => v ?? false, booleanParam),
  /**
   * How long the notify endpoints reuse an integration lookup while the bus is away (notify-lookup.ts);
   * while it is up, replicas announce their writes and entries live longer. 0: no cache.
   */
  ALERTS_INTEGRATIONS_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5_000),
});
export type AlertsConfig = BaseServiceConfig & Partial<z.infer<typeof alertsConfigSchema>>;

/**
 * Composes the alerts service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
export function createAlertsApp(
  runtime: ServiceRuntime<AlertsConfig>,
): ServiceInstance & { alerts: AlertsService } {
  const models = createAlertsModels(runtime.connection);
  runtime.outbox.register(models.alerts);
  const { config } = runtime;
  const integrationsCache = createIntegrationsCache(config.ALERTS_INTEGRATIONS_CACHE_TTL_MS ?? 5_000);
  // Alert ids (never iids) a block at a time: a new alert no longer pays a round trip for its id.
  const counters = withIdBlocks(createCounters(runtime.connection), { alerts: 20 });
  const stores = createAlertsStores(models, counters, integrationsCache);
  const alerts = createAlertsService(stores.alerts, runtime.outbox);
  const integrations = createIntegrationsService(stores.integrations, stores.opsgenie);
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    apiRouters: [
      createIntegrationsRouter(integrations, alerts, SERVICE_NAME),
      createAlertsRouter(alerts, SERVICE_NAME),
      createErrorTrackingRouter(
        createErrorTrackingService(stores.errorTracking, config.ALERTS_ALLOW_LOCAL_REQUESTS ?? false),
      ),
    ],
    rawRouters: [
      createNotifyRouter(
        createNotifyLookup(stores.integrations, stores.opsgenie, integrationsCache),
        alerts,
        SERVICE_NAME,
        {
          requests: config.ALERTS_NOTIFY_RATE_LIMIT ?? 0,
          periodSeconds: config.ALERTS_NOTIFY_RATE_PERIOD_SECONDS ?? 3600,
        },
      ),
    ],
    // The notify endpoints (outside /api/v4) match nested project paths by pattern in notify.router.ts.
    serves: ALERTS_ENDPOINTS.filter((endpoint: EndpointContract) => !endpoint.outsideApi),
  });
  let peers: { close(): void } | null = null;
  return {
    app,
    alerts,
    subscriptions: [createIncidentsSubscription(alerts)],
    start: () => {
      peers = shareIntegrationsCache(integrationsCache, runtime.bus, runtime.logger);
    },
    stop: () => {
      peers?.close();
      return Promise.resolve();
    },
  };
}
