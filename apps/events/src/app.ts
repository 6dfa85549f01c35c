import type { Express } from 'express';
import {
  createServiceHttpApp,
  type ServiceInstance,
  type ServiceRuntime,
  type BaseServiceConfig,
} from '@gl/service-kit';

export const SERVICE_NAME = 'events';

/**
 * Composes the events service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
export function createEventsApp(
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
