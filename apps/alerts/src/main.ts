import { runService } from '@gl/service-kit';
import { createAlertsApp, SERVICE_NAME } from './app';

void runService({
  name: SERVICE_NAME,
  database: 'gl_alerts',
  createApp: (runtime) => createAlertsApp(runtime),
});
