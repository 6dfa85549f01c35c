import { NOTIFICATIONS_ENDPOINTS } from '@gl/contracts';
import { createRuntimeHttpApp, type ServiceInstance, type ServiceRuntime } from '@gl/service-kit';
import { identityProjection } from './identity.projection';
import { createIdentityStore } from './identity.store';
import { createModels } from './models';
import { createSettingsStore } from './settings.store';
import { createSettingsRouter } from './settings.router';
import { createSettingsService, type SettingsService } from './settings.service';

export const SERVICE_NAME = 'notifications';

/**
 * Composes the notifications service from ready dependencies; opens nothing itself (main.ts does), so component
 * tests build it in-process against their own database.
 */
export function createNotificationsApp(
  runtime: ServiceRuntime,
): ServiceInstance & { settings: SettingsService } {
  const models = createModels(runtime.connection);
  const identity = createIdentityStore(models);
  const settings = createSettingsService(createSettingsStore(models), identity);
  const app = createRuntimeHttpApp(runtime, SERVICE_NAME, {
    apiRouters: [createSettingsRouter(settings)],
    serves: NOTIFICATIONS_ENDPOINTS,
  });
  return { app, settings, subscriptions: [identityProjection(identity, settings)] };
}
