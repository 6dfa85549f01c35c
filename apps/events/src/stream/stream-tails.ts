import type { ActivityDoc } from '../events.models';
import type { TailRead, TimelineStore } from '../timeline/timeline.store';

/** Recent events each followed stream keeps in memory, so its live readers share one read of them. */
const RING_SIZE = 2_000;
/** Events one read from the timeline returns (a replay goes on page by page). */
const PAGE = 500;

interface Tail {
  /** Position after the last event known here. */
  end: number;
  /** The events at positions [ringStart, end), oldest first. */
  ring: ActivityDoc[];
  ringStart: number;
  readers: number;
  wakers: Set<() => void>;
  refreshing: Promise<void> | null;
  again: boolean;
}

export interface StreamTails {
  /** Starts following a stream (reference-counted); resolves once its current end is known. */
  follow(stream: string): Promise<void>;
  unfollow(stream: string): void;
  /** The position after the followed stream's last event known here. */
  end(stream: string): number;
  /** Events from `position` on: from memory when they are recent, else from the timeline. */
  read(stream: string, position: number): Promise<TailRead>;
  /** Resolves when the followed stream has events past `position`, or `signal` aborts. */
  waitPast(stream: string, position: number, signal: AbortSignal): Promise<void>;
  /** Reads the newest events of these streams (a notice said they changed); unknown streams are ignored. */
  refresh(streams: Iterable<string>): void;
  /** Every followed stream (the periodic safety refresh). */
  followed(): string[];
}

/**
 * The live ends of the timeline streams this process's clients follow. Each followed stream is read once per
 * wake-up however many clients follow it (a notice from the recorder, or the periodic poll), and its recent
 * events are kept in a ring; every client reads from its own position, so replay and live delivery are the
 * same read and the seam between them can neither skip nor repeat an event.
 */
export function createStreamTails(timeline: TimelineStore): StreamTails {
  const tails = new Map<string, Tail>();
  const starting = new Map<string, Promise<void>>();

  async function pull(stream: string, tail: Tail): Promise<void> {
    for (;;) {
      const { items, next } = await timeline.readFrom(stream, tail.end, PAGE);
      if (next < tail.end) return;
      if (next !== tail.end + items.length) {
        // Retention removed positions in between: the ring starts over after them (readers behind it read
        // the timeline, which passes over what is gone).
        tail.ring = [];
        tail.ringStart = next;
        tail.end = next;
        continue;
      }
      tail.ring.push(...items);
      tail.end = next;
      if (tail.ring.length > RING_SIZE) {
        const drop = tail.ring.length - RING_SIZE;
        tail.ring.splice(0, drop);
        tail.ringStart += drop;
      }
      if (items.length < PAGE) return;
    }
  }

  function refreshOne(stream: string): void {
    const tail = tails.get(stream);
    if (!tail) return;
    if (tail.refreshing) {
      tail.again = true;
      return;
    }
    const before = tail.end;
    tail.refreshing = pull(stream, tail)
      .catch(() => undefined)
      .finally(() => {
        tail.refreshing = null;
        if (tail.end > before) for (const wake of [...tail.wakers]) wake();
        if (tail.again) {
          tail.again = false;
          refreshOne(stream);
        }
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
        start = timeline.end(stream).then((end) => {
          tails.set(stream, {
            end,
            ring: [],
            ringStart: end,
            readers: 0,
            wakers: new Set(),
            refreshing: null,
            again: false,
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
      if (tail && position >= tail.ringStart && position <= tail.end && tail.ring.length > 0) {
        const items = tail.ring.slice(position - tail.ringStart, position - tail.ringStart + PAGE);
        return { items, next: position + items.length };
      }
      if (tail && position >= tail.end) return { items: [], next: position };
      return timeline.readFrom(stream, position, PAGE);
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
      for (const stream of streams) refreshOne(stream);
    },

    followed: () => [...tails.keys()],
  };
}
