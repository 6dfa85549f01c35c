import { Router, type Request } from 'express';
import { ForbiddenError, HttpError, UnauthorizedError, sendJson } from '@gl/service-kit';
import { authenticate } from '../auth/authenticate';
import { FenceStandsError, type WriteFence } from './write-fence';

/** A fence asks for at most this long: writes held longer would time out at clients anyway. */
export const MAX_FENCE_TTL_MS = 300_000;
const DEFAULT_FENCE_TTL_MS = 60_000;
const MAX_DRAIN_MS = 30_000;
const DEFAULT_DRAIN_MS = 10_000;

function bounded(value: unknown, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) throw new HttpError(400, { error: `must be 1..${max}` });
  return n;
}

/**
 * `/-/write-fence`, outside the API and its contracts: operations only (`npm run backup`). Only an
 * administrator's token with the `api` scope may raise or lift it, since a fence stops every client's
 * writes. Not forwarded anywhere: each gateway process has its own fence, so a backup fences every one.
 *
 *   POST   /-/write-fence?ttl_ms=60000&drain_ms=10000  → 200 {id, waited_ms, held_until}; 503 not drained
 *   DELETE /-/write-fence/:id                          → 200 {held_ms, held_requests}; 404 not standing
 *   GET    /-/write-fence                              → the fence's state
 */
/** The identity lookups authentication needs (the users store), as the auth module declares them. */
type Credentials = Parameters<typeof authenticate>[1];

export function createWriteFenceRouter(fence: WriteFence, users: Credentials, externalUrl: string): Router {
  const router = Router();
  const requireAdmin = async (req: Request): Promise<void> => {
    const caller = await authenticate(req, users, externalUrl);
    if (!caller) throw new UnauthorizedError();
    if (!caller.principal.isAdmin || !caller.principal.scopes.includes('api')) throw new ForbiddenError();
  };

  router.post('/-/write-fence', async (req, res) => {
    await requireAdmin(req);
    const query = req.query as Record<string, unknown>;
    const ttlMs = bounded(query.ttl_ms, DEFAULT_FENCE_TTL_MS, MAX_FENCE_TTL_MS);
    const drainMs = bounded(query.drain_ms, DEFAULT_DRAIN_MS, MAX_DRAIN_MS);
    try {
      const held = await fence.hold(ttlMs, drainMs);
      if (!held.drained) {
        sendJson(res, 503, {
          message: `${held.inFlight} writes in flight did not finish within ${drainMs} ms; the fence is lifted`,
        });
        return;
      }
      sendJson(res, 200, { id: held.id, waited_ms: held.waitedMs, held_until: held.heldUntil });
    } catch (err) {
      if (!(err instanceof FenceStandsError)) throw err;
      sendJson(res, 409, { message: '409 Conflict: a write fence already stands' });
    }
  });

  router.delete('/-/write-fence/:id', async (req, res) => {
    await requireAdmin(req);
    // Outside the API, so no contract to parse through: the fence id is an opaque string.
    const lifted = fence.release(String(req.params.id));
    if (!lifted) {
      sendJson(res, 404, { message: '404 Write fence Not Found (lifted after its time-to-live?)' });
      return;
    }
    sendJson(res, 200, { held_ms: lifted.heldMs, held_requests: lifted.heldRequests });
  });

  router.get('/-/write-fence', async (req, res) => {
    await requireAdmin(req);
    sendJson(res, 200, fence.state());
  });
  return router;
}
