import { runService } from '@gl/service-kit';
import { createEventsApp, SERVICE_NAME } from './app';
import { EVENTS_MIGRATIONS } from './migrations';

void runService({
  name: SERVICE_NAME,
  database: 'gl_events',
  migrations: EVENTS_MIGRATIONS,
  createApp: (runtime) => createEventsApp(runtime),
});
