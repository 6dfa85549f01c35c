import { runService } from '@gl/service-kit';
import { createRegistryApp, SERVICE_NAME } from './app';
import { registryConfigSchema } from './config';

void runService({
  name: SERVICE_NAME,
  database: 'gl_registry',
  configSchema: registryConfigSchema,
  createApp: (runtime) => createRegistryApp(runtime),
});
