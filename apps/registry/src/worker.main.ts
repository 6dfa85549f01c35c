import { runService, serviceVersionKey } from '@gl/service-kit';
import { createRegistryWorker, SERVICE_NAME, WORKER_NAME } from './app';
import { registryConfigSchema } from './config';
import { REGISTRY_MIGRATIONS } from './migrations';

/** The registry cleanup worker: its own process, same database as the registry service; scale by starting more. */
void runService({
  name: WORKER_NAME,
  // What it deletes is what the registry service answers.
  consumerVersionKey: serviceVersionKey(SERVICE_NAME),
  database: 'gl_registry',
  migrations: REGISTRY_MIGRATIONS,
  configSchema: registryConfigSchema,
  createApp: (runtime) => createRegistryWorker(runtime),
});
