import { dockerAvailable, startDocker } from './docker';
import { startLocal } from './local';
import type { InfraHandle, StartInfraOptions } from './types';

export type { InfraHandle, StartInfraOptions } from './types';
export { ensureBinaries } from './binaries';
export { freePort, waitForTcp } from './net';
export { startNatsServer, type NatsServerHandle, type NatsServerOptions } from './nats-server';
export { NATS_CLUSTER_SIZES, startNatsNodes, type NatsNodes } from './nats-nodes';
export {
  createRotatingLog,
  directoryBytes,
  logLimitsFromEnv,
  DEFAULT_LOG_LIMITS,
  type LogLimits,
} from './rotating-log';

/**
 * MONGO_URL + NATS_URL given → those servers; else a Docker engine → containers; else locally built
 * FerretDB + nats-server as child processes. A NATS cluster (`natsNodes` > 1) is always the local one:
 * the Docker path runs a single broker.
 */
export async function startInfra(opts: StartInfraOptions): Promise<InfraHandle> {
  const log = opts.log ?? ((): void => undefined);
  const { MONGO_URL: mongoUrl, NATS_URL: natsUrl } = process.env;
  if (mongoUrl !== undefined && mongoUrl !== '' && natsUrl !== undefined && natsUrl !== '') {
    log(`using MONGO_URL and NATS_URL from the environment`);
    if ((opts.natsNodes ?? 1) > 1) log('a local NATS cluster is not started: NATS_URL names the servers');
    return { mongoUrl, natsUrl, source: 'env', stop: () => Promise.resolve() };
  }
  if ((mongoUrl ?? '') !== '' || (natsUrl ?? '') !== '') {
    log('only one of MONGO_URL / NATS_URL is set; both are needed to use external servers, ignoring it');
  }
  if ((opts.natsNodes ?? 1) === 1 && (await dockerAvailable())) return startDocker(log);
  return startLocal(opts);
}
