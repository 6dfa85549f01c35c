import { REGISTRY_ENDPOINTS } from '@gl/contracts';
import {
  createProjectionRevisions,
  createRuntimeHttpApp,
  type ServiceInstance,
  type ServiceRuntime,
} from '@gl/service-kit';
import { createRegistryFeatureGate } from './access';
import type { RegistryConfig } from './config';
import { cleanupWorker } from './cleanup.worker';
import { identityProjection } from './identity.projection';
import { registryModels, type RegistryModels } from './models';
import { createRegistryClient } from './registry-client';
import { createRegistryRouter } from './registry.router';
import type { RegistryDeps } from './registry.service';
import { createRegistryStores } from './stores';

export const SERVICE_NAME = 'registry';
export const WORKER_NAME = 'registry-worker';

/** The stores over the process's models, made once here and shared by everything the process runs. */
function registryDeps(runtime: ServiceRuntime<RegistryConfig>, models: RegistryModels): RegistryDeps {
  return {
    stores: createRegistryStores(models),
    logger: runtime.logger,
    client: runtime.config.REGISTRY_API_URL ? createRegistryClient(runtime.config.REGISTRY_API_URL) : null,
  };
}

/**
 * Composes the registry service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database. Cleanup jobs run in the worker process.
 */
export function createRegistryApp(runtime: ServiceRuntime<RegistryConfig>): ServiceInstance {
  const models = registryModels(runtime.connection, runtime.outbox);
  const deps = registryDeps(runtime, models);
  const revisions = createProjectionRevisions(runtime.connection);
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    apiRouters: [
      // First: a project's unavailable container registry is a 403 before any handler.
      createRegistryFeatureGate(deps.stores.projects),
      createRegistryRouter({
        ...deps,
        config: runtime.config,
        outbox: runtime.outbox,
        revisions,
        metrics: runtime.metrics,
      }),
    ],
    serves: REGISTRY_ENDPOINTS,
  });
  return { app, subscriptions: [identityProjection(models, revisions)] };
}

/** The cleanup worker process: health, readiness and metrics over HTTP, jobs from the registry-cleanup durable. */
export function createRegistryWorker(
  runtime: ServiceRuntime<RegistryConfig>,
): ServiceInstance & { worker: ReturnType<typeof cleanupWorker> } {
  const deps = registryDeps(runtime, registryModels(runtime.connection, runtime.outbox));
  const worker = cleanupWorker(deps, runtime.metrics, {
    maxTagsPerRun: runtime.config.REGISTRY_CLEANUP_MAX_TAGS,
  });
  const app = createRuntimeHttpApp(runtime, WORKER_NAME, {
    apiRouters: [],
  });
  return { app, worker, subscriptions: [worker] };
}
