import { EVENT_STREAM } from '@gl/contracts';
import type { Bus } from '@gl/service-kit';
import { JetStreamApiCodes, JetStreamApiError } from '@nats-io/jetstream';

/**
 * The `hooks-delivery` durable's ack floor: the stream sequence at and below which every event it takes
 * was acknowledged, i.e. queued its deliveries (or needed none) on some replica. A delivery at or below it
 * can no longer be overtaken: no event recorded before it is left to queue one. So the sender sends a
 * hook's deliveries in stream order and none above the floor (sender.ts). Two replicas take different
 * messages of the durable and queue them in whatever order their reads finish; a replica killed with
 * messages in hand leaves them to JetStream's redelivery (ack wait): the floor holds later deliveries back
 * meanwhile, instead of letting them go first (GitLab's WebHookWorker jobs give no order at all).
 */
export interface AckFloor {
  /** The floor, read again when the copy is older than the cache's time or `invalidate` dropped it. */
  read(): Promise<number>;
  /** Deliveries were just queued: the next `read` asks JetStream again. */
  invalidate(): void;
}

/** Reads the durable's ack floor from JetStream (`consumer info`, `ack_floor.stream_seq`). */
export function jetStreamAckFloor(bus: Pick<Bus, 'jsm'>, durable: string): () => Promise<number> {
  return async () => {
    try {
      const info = await bus.jsm.consumers.info(EVENT_STREAM, durable);
      return info.ack_floor.stream_seq;
    } catch (err) {
      // No durable (or stream) yet: nothing was consumed, so only deliveries not from the bus (at 0) go.
      const missing =
        err instanceof JetStreamApiError &&
        (err.code === JetStreamApiCodes.ConsumerNotFound || err.code === JetStreamApiCodes.StreamNotFound);
      if (missing) return 0;
      throw err;
    }
  };
}

/**
 * `read` cached for `ttlMs` (a sender pass reads it once, and passes follow each other closely while
 * deliveries wait for the floor). A failed read answers the last floor read: the floor only rises, so an
 * older one holds back more, never less.
 */
export function cachedAckFloor(
  fetchFloor: () => Promise<number>,
  ttlMs: number,
  onError: (err: unknown) => void = () => undefined,
  now: () => number = Date.now,
): AckFloor {
  let value = 0;
  let readAt = -Infinity;
  /** Bumped by `invalidate`: a read started before it does not count as fresh. */
  let generation = 0;
  let pending: { generation: number; floor: Promise<number> } | null = null;
  return {
    read() {
      if (now() - readAt < ttlMs) return Promise.resolve(value);
      if (pending?.generation === generation) return pending.floor;
      const started = { at: now(), generation };
      const floor = fetchFloor().then(
        (fetched) => {
          if (started.generation === generation) readAt = started.at;
          value = fetched;
          return fetched;
        },
        (err: unknown) => {
          onError(err);
          return value;
        },
      );
      const entry = { generation, floor };
      pending = entry;
      void floor.finally(() => {
        if (pending === entry) pending = null;
      });
      return floor;
    },
    invalidate() {
      generation += 1;
      readAt = -Infinity;
    },
  };
}
