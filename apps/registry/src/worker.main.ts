import { runService } from '@gl/service-kit';
import { createRegistryWorker, WORKER_NAME } from './app';
import { registryConfigSchema } from './config';
import { REGISTRY_MIGRATIONS } from './migrations';

/** The registry cleanup worker: its own process, same database as the registry service; scale by starting more. */
void runService({
  name: WORKER_NAME,
  database: 'gl_registry',
  migrations: REGISTRY_MIGRATIONS,
  configSchema: registryConfigSchema,
  createApp: (runtime) => createRegistryWorker(runtime),
});
