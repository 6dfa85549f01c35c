import type { ActivityDoc } from '../events.models';
import type { LiveLog, TailRead } from './live-log';

/** Recent events each followed scope keeps in memory, so its live readers share one read of them. */
const RING_SIZE = 2_000;
/** Events one read from the log returns (a replay goes on page by page). */
const PAGE = 500;

interface Tail {
  /** The id up to which this scope was read: its events up to here are known here. */
  end: number;
  /** The events with ids in (ringStart, end], oldest first. */
  ring: ActivityDoc[];
  ringStart: number;
  readers: number;
  wakers: Set<() => void>;
  refreshing: Promise<void> | null;
  /** A newer settled id came while reading: read again up to it. */
  again: Promise<number> | null;
}

export interface StreamTails {
  /** Starts following a scope (reference-counted); resolves once its current end is known. */
  follow(stream: string): Promise<void>;
  unfollow(stream: string): void;
  /** The id up to which the followed scope was read here. */
  end(stream: string): number;
  /** Events after `position` (an id): from memory when they are recent, else from the log. */
  read(stream: string, position: number): Promise<TailRead>;
  /** Resolves when the followed scope was read past `position`, or `signal` aborts. */
  waitPast(stream: string, position: number, signal: AbortSignal): Promise<void>;
  /** Reads these scopes on to the settled id (a notice said they changed); unknown ones are ignored. */
  refresh(streams: Iterable<string>): void;
  /** Every followed scope (the periodic safety refresh). */
  followed(): string[];
}

/** The first index of `ring` (ids ascending) holding an id above `position`. */
function firstAfter(ring: ActivityDoc[], position: number): number {
  let lo = 0;
  let hi = ring.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ring[mid]!._id <= position) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The live ends of the scopes this process's clients follow. Each followed scope is read once per wake-up
 * however many clients follow it (a notice from a recorder, or the periodic poll), up to the settled id read
 * once for all of them, and its recent events are kept in a ring; every client reads on from its own
 * position (the last id it was sent), so replay and live delivery are the same read and the seam between
 * them can neither skip nor repeat an event.
 */
export function createStreamTails(log: LiveLog): StreamTails {
  const tails = new Map<string, Tail>();
  const starting = new Map<string, Promise<void>>();

  async function pull(stream: string, tail: Tail, upTo: number): Promise<void> {
    while (upTo > tail.end) {
      const { items, next } = await log.read(stream, tail.end, upTo, PAGE);
      tail.ring.push(...items);
      tail.end = next;
      if (tail.ring.length > RING_SIZE) {
        const dropped = tail.ring.splice(0, tail.ring.length - RING_SIZE);
        tail.ringStart = dropped.at(-1)!._id;
      }
    }
  }

  function refreshOne(stream: string, settled: Promise<number>): void {
    const tail = tails.get(stream);
    if (!tail) return;
    if (tail.refreshing) {
      tail.again = settled;
      return;
    }
    const before = tail.end;
    tail.refreshing = settled
      .then((upTo) => pull(stream, tail, upTo))
      .catch(() => undefined)
      .finally(() => {
        tail.refreshing = null;
        if (tail.end > before) for (const wake of [...tail.wakers]) wake();
        const again = tail.again;
        tail.again = null;
        if (again) refreshOne(stream, again);
      });
  }

  return {
    async follow(stream) {
      const tail = tails.get(stream);
      if (tail) {
        tail.readers += 1;
        return;
      }
      let start = starting.get(stream);
      if (!start) {
        start = log.settled().then((end) => {
          tails.set(stream, {
            end,
            ring: [],
            ringStart: end,
            readers: 0,
            wakers: new Set(),
            refreshing: null,
            again: null,
          });
        });
        starting.set(stream, start);
        void start.finally(() => starting.delete(stream)).catch(() => undefined);
      }
      await start;
      tails.get(stream)!.readers += 1;
    },

    unfollow(stream) {
      const tail = tails.get(stream);
      if (!tail) return;
      tail.readers -= 1;
      if (tail.readers <= 0) tails.delete(stream);
    },

    end: (stream) => tails.get(stream)?.end ?? 0,

    async read(stream, position) {
      const tail = tails.get(stream);
      if (tail && position >= tail.end) return { items: [], next: position };
      if (tail && position >= tail.ringStart) {
        const from = firstAfter(tail.ring, position);
        const items = tail.ring.slice(from, from + PAGE);
        return { items, next: items.length === PAGE ? items.at(-1)!._id : tail.end };
      }
      // Behind the ring: from the log, up to where this process has read the scope.
      return log.read(stream, position, tail?.end ?? (await log.settled()), PAGE);
    },

    waitPast(stream, position, signal) {
      const tail = tails.get(stream);
      if (!tail || tail.end > position || signal.aborted) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const wake = (): void => {
          tail.wakers.delete(wake);
          signal.removeEventListener('abort', wake);
          resolve();
        };
        tail.wakers.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    },

    refresh(streams) {
      const keys = [...streams].filter((stream) => tails.has(stream));
      if (keys.length === 0) return;
      // One read of the settled id, made after the notice, for every scope it names.
      const settled = log.settled();
      settled.catch(() => undefined);
      for (const stream of keys) refreshOne(stream, settled);
    },

    followed: () => [...tails.keys()],
  };
}
