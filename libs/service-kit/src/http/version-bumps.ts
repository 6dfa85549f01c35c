import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { WRITES_REACHING_ACROSS } from '@gl/contracts';
import { serviceVersionKey, writeKeys, type ResourceVersions } from '../bus/resource-versions';
import { OPERATION_LOCAL } from './route';

/**
 * After a write, bumps the versions of what it may have changed (resource-versions.ts `writeKeys`) before
 * the answer leaves: a client that wrote and then polls with the tag it held gets the new answer, from any
 * gateway replica. A refused write (4xx) changed nothing and bumps nothing; a failed one (5xx) may have
 * written part, so it bumps the service's whole key. When the bucket cannot be reached the answer still
 * goes (the write is stored) and the service's key is bumped again in the background until it takes:
 * until then a poller may be told "not modified" about this write.
 */
export function bumpVersionsAfterWrites(
  service: string,
  versions: Pick<ResourceVersions, 'bump'>,
  logger: Logger,
): RequestHandler {
  const retry = retryingBump(service, versions, logger);
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      next();
      return;
    }
    const end = res.end.bind(res) as (...args: unknown[]) => Response;
    let bumping = false;
    res.end = ((...args: unknown[]) => {
      if (bumping || (res.statusCode >= 400 && res.statusCode < 500)) return end(...args);
      bumping = true;
      const operationId = res.locals[OPERATION_LOCAL] as string | undefined;
      const keys =
        res.statusCode >= 500
          ? [serviceVersionKey(service)]
          : writeKeys(
              service,
              req.ctx?.namespace ?? null,
              operationId !== undefined && WRITES_REACHING_ACROSS.has(operationId),
            );
      versions
        .bump(keys)
        .catch((err: unknown) => {
          logger.warn({ err, keys }, 'resource versions: bump failed; retrying the service key');
          retry();
        })
        .finally(() => end(...args));
      return res;
    }) as Response['end'];
    next();
  };
}

/** Bumps the service's key until the bucket takes it (once at a time, every second). */
function retryingBump(service: string, versions: Pick<ResourceVersions, 'bump'>, logger: Logger): () => void {
  let pending = false;
  const attempt = (): void => {
    versions.bump([serviceVersionKey(service)]).then(
      () => {
        pending = false;
        logger.info({ service }, 'resource versions: service key bumped after a failure');
      },
      () => setTimeout(attempt, 1_000).unref(),
    );
  };
  return () => {
    if (pending) return;
    pending = true;
    attempt();
  };
}
