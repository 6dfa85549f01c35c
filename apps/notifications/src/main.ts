import { runService } from '@gl/service-kit';
import { createNotificationsApp, SERVICE_NAME } from './app';
import { NOTIFICATIONS_MIGRATIONS } from './migrations';

void runService({
  name: SERVICE_NAME,
  database: 'gl_notifications',
  migrations: NOTIFICATIONS_MIGRATIONS,
  createApp: (runtime) => createNotificationsApp(runtime),
});
