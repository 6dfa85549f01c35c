import { z } from 'zod';
import { HOOKS_ENDPOINTS, booleanParam } from '@gl/contracts';
import {
  createCounters,
  createRuntimeHttpApp,
  type BaseServiceConfig,
  type HostLookup,
  type ServiceInstance,
  type ServiceRuntime,
} from '@gl/service-kit';
import { createDelivery, deliveryConfigSchema, type Delivery } from './delivery';
import { createHooksModels } from './hooks.models';
import { createHooksRouter } from './hooks.router';
import { createHooksService, type HooksService } from './hooks.service';
import { createHooksStore, type HooksStore } from './hooks.store';
import { createHookedParents } from './hooked-parents';
import { identityProjection } from './identity.projection';
import type { DiscussionsSource } from './payloads/discussions-source';

export const SERVICE_NAME = 'hooks';

/**
 * GitLab's `allow_local_requests_from_web_hooks_and_services` (off by default): hooks may then name
 * loopback, private and link-local addresses.
 */
export const hooksConfigSchema = z.object({
  ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES: z.preprocess((v) => v ?? false, booleanParam),
  // Deliveries (delivery/delivery.config.ts): DISCUSSIONS_URL, GITLAB_EXTERNAL_URL, HOOKS_RETRY_*…
  ...deliveryConfigSchema.shape,
});
export type HooksConfig = BaseServiceConfig & Partial<z.infer<typeof hooksConfigSchema>>;

/**
 * Composes the hooks service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database. `lookup` replaces the system resolver in tests,
 * `source` the reads from discussions.
 */
export function createHooksApp(
  runtime: ServiceRuntime<HooksConfig>,
  lookup?: HostLookup,
  source?: DiscussionsSource,
): ServiceInstance & { hooks: HooksService; store: HooksStore; delivery: Delivery } {
  const models = createHooksModels(runtime.connection);
  const hookedParents = createHookedParents(models.hooks, runtime.versions, runtime.logger);
  const store = createHooksStore(models, createCounters(runtime.connection), () => hookedParents.added());
  // Payloads queued from the bus, sent by the background sender (delivery/).
  const delivery = createDelivery({
    runtime,
    hooks: models.hooks,
    hookedParents,
    allowLocalRequests: runtime.config.ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES ?? false,
    lookup,
    source,
  });
  const hooks = createHooksService(store, {
    allowLocalRequests: runtime.config.ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES ?? false,
    lookup,
    removal: delivery.removal,
  });
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    apiRouters: [createHooksRouter(hooks), delivery.logRouter(hooks), delivery.testRouter(hooks)],
    serves: HOOKS_ENDPOINTS,
  });
  return {
    app,
    hooks,
    store,
    delivery,
    subscriptions: [identityProjection(store, delivery.removal), delivery.subscription],
    start: () => {
      delivery.sender.start();
      delivery.queueBound.start();
    },
    stop: async () => {
      await delivery.queueBound.stop();
      await delivery.sender.stop();
    },
  };
}
