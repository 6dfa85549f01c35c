import { runService } from '@gl/service-kit';
import { createHooksApp, hooksConfigSchema, SERVICE_NAME } from './app';
import { HOOKS_MIGRATIONS } from './migrations';

// runService starts the app's `start` (the delivery sender) once its consumers run and awaits its `stop`
// (the pass in flight) on SIGTERM, before the bus and database close.
void runService({
  name: SERVICE_NAME,
  database: 'gl_hooks',
  migrations: HOOKS_MIGRATIONS,
  configSchema: hooksConfigSchema,
  createApp: (runtime) => createHooksApp(runtime),
});
