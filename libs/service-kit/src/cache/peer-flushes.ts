import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Bus } from '../bus/bus';
import type { FlushedCache } from './flushed-cache';

/**
 * Default life of a cache entry while replicas announce their writes to each other: a safety net for an
 * announcement lost on a connection that stayed up, not the way writes are seen. 10,000 users sending
 * 200 requests a second come back every 50 s each; at 60 s, much of the GitLab-like mix missed.
 */
export const DEFAULT_SHARED_TTL_MS = 600_000;

/**
 * Joins a process's cache to its peers' (the same cache in the other replicas): each write here is
 * announced, each peer's announcement empties the cache here, so a revoked token or a changed record
 * counts on every replica within a message's delivery instead of a TTL.
 *
 * `subject` is core NATS, outside the event stream's subjects (`gl.>`), one per cache
 * (`cache.<service>.<records>.flush`): a flush concerns the replicas running now and is no record to keep.
 * Delivery is at most once; what a replica misses while disconnected is covered by flushing on reconnect
 * and by the short TTL while the channel is down.
 */
export function sharePeerFlushes(
  cache: FlushedCache,
  bus: Pick<Bus, 'connection' | 'isConnected' | 'onReconnect'>,
  subject: string,
  logger: Logger,
  sharedTtlMs = DEFAULT_SHARED_TTL_MS,
): { close(): void } {
  const self = randomUUID();
  let subscribed = true;
  const subscription = bus.connection.subscribe(subject, {
    callback: (err, message) => {
      if (err) {
        logger.warn({ err: err.message, subject }, 'cache flushes: subscription failed');
        return;
      }
      if (message.string() !== self) cache.invalidateFromPeer();
    },
  });
  void subscription.closed.then(() => {
    subscribed = false;
  });
  // Announcements sent while this process was away were lost.
  bus.onReconnect(() => cache.invalidateFromPeer());
  cache.share(
    {
      announce() {
        try {
          bus.connection.publish(subject, self);
        } catch (err) {
          // Peers fall back to the short TTL once they see the bus gone; nothing to retry here.
          logger.warn({ err: (err as Error).message, subject }, 'cache flush not announced');
        }
      },
      live: () => subscribed && bus.isConnected(),
    },
    sharedTtlMs,
  );
  return { close: () => subscription.unsubscribe() };
}
