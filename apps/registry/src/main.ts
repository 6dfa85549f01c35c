import { runService } from '@gl/service-kit';
import { createRegistryApp, SERVICE_NAME } from './app';

void runService({
  name: SERVICE_NAME,
  database: 'gl_registry',
  createApp: (runtime) => createRegistryApp(runtime),
});
