import { runService } from '@gl/service-kit';
import { createRegistryWorker, WORKER_NAME } from './app';
import { registryConfigSchema } from './config';

/** The registry cleanup worker: its own process, same database as the registry service; scale by starting more. */
void runService({
  name: WORKER_NAME,
  database: 'gl_registry',
  configSchema: registryConfigSchema,
  createApp: (runtime) => createRegistryWorker(runtime),
});
