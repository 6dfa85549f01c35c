import type { Express } from 'express';
import {
  createCounters,
  createProjectionRevisions,
  createServiceHttpApp,
  type ServiceInstance,
  type ServiceRuntime,
} from '@gl/service-kit';
import type { RegistryConfig } from './config';
import { cleanupWorker } from './cleanup.worker';
import { identityProjection } from './identity.projection';
import { registryModels } from './models';
import { createRegistryClient } from './registry-client';
import { createRegistryRouter } from './registry.router';
import type { RegistryDeps } from './registry.service';

export const SERVICE_NAME = 'registry';
export const WORKER_NAME = 'registry-worker';

function registryDeps(runtime: ServiceRuntime<RegistryConfig>): RegistryDeps {
  return {
    models: registryModels(runtime.connection, runtime.outbox),
    counters: createCounters(runtime.connection),
    logger: runtime.logger,
    client: runtime.config.REGISTRY_API_URL ? createRegistryClient(runtime.config.REGISTRY_API_URL) : null,
  };
}

/**
 * Composes the registry service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database. Cleanup jobs run in the worker process.
 */
export function createRegistryApp(
  runtime: ServiceRuntime<RegistryConfig>,
): ServiceInstance & { app: Express } {
  const deps = registryDeps(runtime);
  const revisions = createProjectionRevisions(runtime.connection);
  const app = createServiceHttpApp({
    name: SERVICE_NAME,
    logger: runtime.logger,
    metrics: runtime.metrics,
    contextSecret: runtime.config.INTERNAL_CONTEXT_SECRET,
    readiness: runtime.readiness,
    apiRouters: [
      createRegistryRouter({ ...deps, config: runtime.config, outbox: runtime.outbox, revisions }),
    ],
  });
  return { app, subscriptions: [identityProjection(deps.models, revisions)] };
}

/** The cleanup worker process: health, readiness and metrics over HTTP, jobs from the registry-cleanup durable. */
export function createRegistryWorker(
  runtime: ServiceRuntime<RegistryConfig>,
): ServiceInstance & { app: Express; worker: ReturnType<typeof cleanupWorker> } {
  const deps = registryDeps(runtime);
  const worker = cleanupWorker(deps, runtime.metrics, {
    maxTagsPerRun: runtime.config.REGISTRY_CLEANUP_MAX_TAGS,
  });
  const app = createServiceHttpApp({
    name: WORKER_NAME,
    logger: runtime.logger,
    metrics: runtime.metrics,
    contextSecret: runtime.config.INTERNAL_CONTEXT_SECRET,
    readiness: runtime.readiness,
    apiRouters: [],
  });
  return { app, worker, subscriptions: [worker] };
}
