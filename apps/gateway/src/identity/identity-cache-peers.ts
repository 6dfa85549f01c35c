import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Bus } from '@gl/service-kit';
import type { IdentityCache } from './identity.cache';

/**
 * Core NATS, outside the event stream's subjects (`gl.>`): a flush concerns the replicas running now and is
 * no record to keep. Delivery is at most once; what a replica misses while disconnected is covered by
 * flushing on reconnect and by the short TTL while the channel is down.
 */
export const IDENTITY_FLUSH_SUBJECT = 'cache.gateway.identity.flush';

/**
 * Default life of a cache entry while replicas announce their writes to each other: a safety net for an
 * announcement lost on a connection that stayed up, not the way writes are seen. 10,000 users sending
 * 200 requests a second come back every 50 s each; at 60 s, much of the GitLab-like mix missed.
 */
export const DEFAULT_SHARED_TTL_MS = 600_000;

/**
 * Joins this gateway's identity cache to its peers': each identity write here is announced, each peer's
 * announcement empties the cache here, so a revoked token, a removed membership or a changed visibility
 * counts on every replica within a message's delivery instead of a TTL.
 */
export function shareIdentityCache(
  cache: IdentityCache,
  bus: Pick<Bus, 'connection' | 'isConnected' | 'onReconnect'>,
  logger: Logger,
  sharedTtlMs = DEFAULT_SHARED_TTL_MS,
): { close(): void } {
  const self = randomUUID();
  let subscribed = true;
  const subscription = bus.connection.subscribe(IDENTITY_FLUSH_SUBJECT, {
    callback: (err, message) => {
      if (err) {
        logger.warn({ err: err.message }, 'identity cache flushes: subscription failed');
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
          bus.connection.publish(IDENTITY_FLUSH_SUBJECT, self);
        } catch (err) {
          // Peers fall back to the short TTL once they see the bus gone; nothing to retry here.
          logger.warn({ err: (err as Error).message }, 'identity cache flush not announced');
        }
      },
      live: () => subscribed && bus.isConnected(),
    },
    sharedTtlMs,
  );
  return { close: () => subscription.unsubscribe() };
}
