import { runService } from '@gl/service-kit';
import { createDiscussionsApp, SERVICE_NAME } from './app';

void runService({
  name: SERVICE_NAME,
  database: 'gl_discussions',
  createApp: (runtime) => createDiscussionsApp(runtime),
});
