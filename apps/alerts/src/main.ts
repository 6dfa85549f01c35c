import { runService } from '@gl/service-kit';
import { alertsConfigSchema, createAlertsApp, SERVICE_NAME } from './app';

void runService({
  name: SERVICE_NAME,
  database: 'gl_alerts',
  configSchema: alertsConfigSchema,
  createApp: (runtime) => createAlertsApp(runtime),
});
