import { runService } from '@gl/service-kit';
import { alertsConfigSchema, createAlertsApp, SERVICE_NAME } from './app';
import { ALERTS_MIGRATIONS } from './migrations';

void runService({
  name: SERVICE_NAME,
  database: 'gl_alerts',
  migrations: ALERTS_MIGRATIONS,
  configSchema: alertsConfigSchema,
  createApp: (runtime) => createAlertsApp(runtime),
});
