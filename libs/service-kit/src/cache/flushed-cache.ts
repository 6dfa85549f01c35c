import type { Schema } from 'mongoose';

/**
 * Reads of records that change rarely and only through the process that owns them (the gateway's tokens,
 * users, namespaces and memberships; the alerts service's integrations), kept in the process: each costs
 * a round trip and a decode on every request otherwise. The whole cache is dropped on any write to its
 * records made here. Alone, another replica's writes are seen after at most `ttlMs` (0 disables caching).
 * Shared with its peers (`share`, peer-flushes.ts), every write here is announced to the other replicas,
 * which drop theirs at once, and entries live for `sharedTtlMs` while the announcements can flow: measured
 * in the GitLab-like mix, a 5 s life made most requests of 200 users miss and cost six lookups each.
 */
export interface FlushedCache {
  /** `load` may return a mongoose query (a thenable): it is executed exactly once. */
  get<T>(key: string, load: () => PromiseLike<T>): Promise<T>;
  /** Forgets everything; called after every write to a cached collection (and announced to peers). */
  invalidate(): void;
  /** Forgets everything because a peer wrote (not announced again). */
  invalidateFromPeer(): void;
  /** Announces this process's invalidations on `channel`; entries live `sharedTtlMs` while it is live. */
  share(channel: PeerChannel, sharedTtlMs: number): void;
  readonly stats: { hits: number; misses: number; invalidations: number };
}

/** How a cache reaches its peers: the same cache in the other replicas of its service. */
export interface PeerChannel {
  announce(): void;
  /** Whether announcements are being delivered both ways now (the bus is connected and subscribed). */
  live(): boolean;
}

/**
 * Entries kept at most, the least recently used going first. In the gateway each active user holds about
 * three (token, user, memberships) besides the shared groups and projects: 10,000 users fit several times
 * over. A limit of 10,000 that emptied the whole cache when reached made most requests of 10,000 users
 * miss and cost six lookups and two bookkeeping writes each (GitLab-like mix, `GL_DB_COMMAND_TRACE=1`).
 */
const DEFAULT_MAX_ENTRIES = 100_000;

export function createFlushedCache(ttlMs: number, maxEntries = DEFAULT_MAX_ENTRIES): FlushedCache {
  const entries = new Map<string, { loadedAt: number; value: Promise<unknown>; generation: number }>();
  let generation = 0;
  let peers: { channel: PeerChannel; ttlMs: number } | null = null;
  const stats = { hits: 0, misses: 0, invalidations: 0 };
  // Read at every lookup, so entries loaded while shared expire at the short TTL once the channel drops.
  const lifetime = (): number => (peers?.channel.live() ? peers.ttlMs : ttlMs);
  const forget = (): void => {
    // A lookup already in flight when the write lands carries the old generation and is not served again.
    generation++;
    entries.clear();
    stats.invalidations++;
  };
  return {
    stats,
    get<T>(key: string, load: () => PromiseLike<T>): Promise<T> {
      if (ttlMs <= 0) return Promise.resolve(load());
      const now = Date.now();
      const entry = entries.get(key);
      if (entry && now - entry.loadedAt < lifetime() && entry.generation === generation) {
        stats.hits++;
        // A Map iterates in insertion order: moved to the end, the first key is the least recently used.
        entries.delete(key);
        entries.set(key, entry);
        return entry.value as Promise<T>;
      }
      stats.misses++;
      entries.delete(key);
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
      const loadedIn = generation;
      // Cache the promise, so concurrent requests for the same key share one lookup.
      const value = Promise.resolve(load());
      entries.set(key, { loadedAt: now, value, generation: loadedIn });
      value.catch(() => entries.delete(key));
      return value;
    },
    invalidate() {
      forget();
      peers?.channel.announce();
    },
    invalidateFromPeer: forget,
    share(channel, sharedTtlMs) {
      peers = { channel, ttlMs: Math.max(ttlMs, sharedTtlMs) };
    },
  };
}

const WRITE_QUERIES = [
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'findOneAndDelete',
  'findOneAndReplace',
  'replaceOne',
  'deleteOne',
  'deleteMany',
] as const;

/** Invalidates the cache after any write through this schema's model, however the write was issued. */
export function invalidateOnWrite(schema: Schema, cache: () => FlushedCache | undefined): void {
  const invalidate = (): void => cache()?.invalidate();
  schema.post('save', invalidate);
  schema.post('insertMany', invalidate);
  schema.post('bulkWrite' as 'save', invalidate);
  for (const op of WRITE_QUERIES) schema.post(op, invalidate);
}
