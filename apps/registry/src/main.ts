import { runService } from '@gl/service-kit';
import { createRegistryApp, SERVICE_NAME } from './app';
import { registryConfigSchema } from './config';
import { REGISTRY_MIGRATIONS } from './migrations';

void runService({
  name: SERVICE_NAME,
  database: 'gl_registry',
  migrations: REGISTRY_MIGRATIONS,
  configSchema: registryConfigSchema,
  createApp: (runtime) => createRegistryApp(runtime),
});
