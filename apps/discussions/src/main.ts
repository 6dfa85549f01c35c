import { runService } from '@gl/service-kit';
import { createDiscussionsApp, SERVICE_NAME } from './app';
import { DISCUSSIONS_MIGRATIONS } from './migrations';

void runService({
  name: SERVICE_NAME,
  database: 'gl_discussions',
  migrations: DISCUSSIONS_MIGRATIONS,
  createApp: (runtime) => createDiscussionsApp(runtime),
});
