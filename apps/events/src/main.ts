import { runService } from '@gl/service-kit';
import { createEventsApp, SERVICE_NAME } from './app';

void runService({
  name: SERVICE_NAME,
  database: 'gl_events',
  createApp: (runtime) => createEventsApp(runtime),
});
