import { runService } from '@gl/service-kit';
import { createNotificationsApp, SERVICE_NAME } from './app';

void runService({
  name: SERVICE_NAME,
  database: 'gl_notifications',
  createApp: (runtime) => createNotificationsApp(runtime),
});
