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
import { createHooksModels } from './hooks.models';
import { createHooksRouter } from './hooks.router';
import { createHooksService, type HooksService } from './hooks.service';
import { createHooksStore, type HooksStore } from './hooks.store';
import { identityProjection } from './identity.projection';

export const SERVICE_NAME = 'hooks';

/**
 * GitLab's `allow_local_requests_from_web_hooks_and_services` (off by default): hooks may then name
 * loopback, private and link-local addresses.
 */
export const hooksConfigSchema = z.object({
  ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES: z.preprocess((v) => v ?? false, booleanParam),
});
export type HooksConfig = BaseServiceConfig & Partial<z.infer<typeof hooksConfigSchema>>;

/**
 * Composes the hooks service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database. `lookup` replaces the system resolver in tests.
 */
export function createHooksApp(
  runtime: ServiceRuntime<HooksConfig>,
  lookup?: HostLookup,
): ServiceInstance & { hooks: HooksService; store: HooksStore } {
  const models = createHooksModels(runtime.connection);
  const store = createHooksStore(models, createCounters(runtime.connection));
  const hooks = createHooksService(store, {
    allowLocalRequests: runtime.config.ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES ?? false,
    lookup,
  });
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    apiRouters: [createHooksRouter(hooks)],
    serves: HOOKS_ENDPOINTS,
  });
  return { app, hooks, store, subscriptions: [identityProjection(store)] };
}
