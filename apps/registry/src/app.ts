import type { Express } from 'express';
import {
  createServiceHttpApp,
  type ServiceInstance,
  type ServiceRuntime,
  type BaseServiceConfig,
} from '@gl/service-kit';

export const SERVICE_NAME = 'registry';

/**
 * Composes the registry service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
export function createRegistryApp(
  runtime: ServiceRuntime<BaseServiceConfig>,
): ServiceInstance & { app: Express } {
  const app = createServiceHttpApp({
    name: SERVICE_NAME,
    logger: runtime.logger,
    metrics: runtime.metrics,
    contextSecret: runtime.config.INTERNAL_CONTEXT_SECRET,
    readiness: runtime.readiness,
    apiRouters: [],
  });
  return { app };
}
