import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

/**
 * The write fence of one gateway process (README "Backup and restore"). Without snapshots across
 * databases (FerretDB has none, MongoDB's last minutes at most), a backup is a moment only if nothing
 * writes while the producers' databases are read; every client write enters through this edge, so the
 * edge holds them: while the fence stands, requests that may write (any method but GET, HEAD, OPTIONS)
 * wait here and go on, unchanged, once it is lifted. Reads pass. A fence lifts by itself after its
 * time-to-live, so a backup that dies cannot stop writes for longer than it asked for.
 */
export interface WriteFence {
  /** Holds writes while the fence stands; counts the writes in flight. */
  middleware: RequestHandler;
  /**
   * Raises the fence, then waits until the writes already in flight have answered (at most `drainMs`).
   * When they have not, the fence is lifted again and `drained` is false: the caller gets no moment.
   */
  hold(ttlMs: number, drainMs: number): Promise<HoldResult>;
  /** Lifts the fence `id`; false when it is not the standing one (already lifted, or timed out). */
  release(id: string): ReleaseResult | null;
  state(): FenceState;
}

export interface HoldResult {
  id: string;
  drained: boolean;
  waitedMs: number;
  /** Writes still in flight when the drain ended (0 when drained). */
  inFlight: number;
  heldUntil: string;
}

export interface ReleaseResult {
  heldMs: number;
  /** Writes that waited at the fence and now go on. */
  heldRequests: number;
}

export interface FenceState {
  held: boolean;
  id: string | null;
  since: string | null;
  inFlight: number;
  waiting: number;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class FenceStandsError extends Error {
  constructor() {
    super('a write fence already stands');
  }
}

export function createWriteFence(events: {
  held(id: string, waitedMs: number): void;
  lifted(id: string, heldMs: number, heldRequests: number, why: 'released' | 'expired' | 'not drained'): void;
}): WriteFence {
  let inFlight = 0;
  let drainWaiters: (() => void)[] = [];
  let current: {
    id: string;
    since: number;
    timer: NodeJS.Timeout;
    waiting: (() => void)[];
    heldRequests: number;
  } | null = null;

  const finished = (): void => {
    inFlight -= 1;
    if (inFlight === 0) for (const wake of drainWaiters.splice(0)) wake();
  };

  const lift = (why: 'released' | 'expired' | 'not drained'): ReleaseResult => {
    const fence = current!;
    current = null;
    clearTimeout(fence.timer);
    const heldMs = Date.now() - fence.since;
    events.lifted(fence.id, heldMs, fence.heldRequests, why);
    for (const go of fence.waiting) go();
    return { heldMs, heldRequests: fence.heldRequests };
  };

  const middleware: RequestHandler = (req, res, next) => {
    if (READS.has(req.method)) return next();
    // Counted until its answer is sent (or its client is gone): by then the service has written.
    const pass = (): void => {
      inFlight += 1;
      res.once('close', finished);
      next();
    };
    if (!current) return pass();
    current.heldRequests += 1;
    // A client that gave up while held got no answer and may send it again: it is not carried out.
    current.waiting.push(() => (req.socket?.destroyed ? undefined : pass()));
  };

  return {
    middleware,
    async hold(ttlMs, drainMs) {
      if (current) throw new FenceStandsError();
      const id = randomUUID();
      const since = Date.now();
      const fence = {
        id,
        since,
        timer: setTimeout(() => {
          if (current?.id === id) lift('expired');
        }, ttlMs),
        waiting: [] as (() => void)[],
        heldRequests: 0,
      };
      fence.timer.unref();
      current = fence;
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            drainWaiters = drainWaiters.filter((w) => w !== wake);
            resolve();
          }, drainMs);
          const wake = (): void => {
            clearTimeout(timer);
            resolve();
          };
          drainWaiters.push(wake);
        });
      }
      const waitedMs = Date.now() - since;
      // Lifted meanwhile (its time-to-live was shorter than the drain): no moment either.
      const drained = inFlight === 0 && current?.id === id;
      const result = { id, drained, waitedMs, inFlight, heldUntil: new Date(since + ttlMs).toISOString() };
      if (!drained) {
        if (current?.id === id) lift('not drained');
        return result;
      }
      events.held(id, waitedMs);
      return result;
    },
    release(id) {
      if (current?.id !== id) return null;
      return lift('released');
    },
    state() {
      return {
        held: current !== null,
        id: current?.id ?? null,
        since: current ? new Date(current.since).toISOString() : null,
        inFlight,
        waiting: current?.waiting.length ?? 0,
      };
    },
  };
}
