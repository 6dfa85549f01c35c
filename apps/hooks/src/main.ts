import { runService } from '@gl/service-kit';
import { createHooksApp, hooksConfigSchema, SERVICE_NAME } from './app';
import { HOOKS_MIGRATIONS } from './migrations';

void runService({
  name: SERVICE_NAME,
  database: 'gl_hooks',
  migrations: HOOKS_MIGRATIONS,
  configSchema: hooksConfigSchema,
  createApp: (runtime) => createHooksApp(runtime),
});
