import type { Schema } from 'mongoose';

/**
 * Every request to the gateway needs the token, its user, the addressed group or project and the caller's
 * memberships: four lookups on every request, on a database (FerretDB) where each costs a round trip and
 * a decode. They change rarely and only through this process, so they are cached briefly and the whole cache is
 * dropped on any identity write made here. Another gateway replica's writes are seen after at most
 * `ttlMs` (IDENTITY_CACHE_TTL_MS; 0 disables caching).
 */
export interface IdentityCache {
  /** `load` may return a mongoose query (a thenable): it is executed exactly once. */
  get<T>(key: string, load: () => PromiseLike<T>): Promise<T>;
  /** Forgets everything; called after every write to an identity collection. */
  invalidate(): void;
  readonly stats: { hits: number; misses: number; invalidations: number };
}

const MAX_ENTRIES = 10_000;

export function createIdentityCache(ttlMs: number): IdentityCache {
  const entries = new Map<string, { expires: number; value: Promise<unknown>; generation: number }>();
  let generation = 0;
  const stats = { hits: 0, misses: 0, invalidations: 0 };
  return {
    stats,
    get<T>(key: string, load: () => PromiseLike<T>): Promise<T> {
      if (ttlMs <= 0) return Promise.resolve(load());
      const now = Date.now();
      const entry = entries.get(key);
      if (entry && entry.expires > now && entry.generation === generation) {
        stats.hits++;
        return entry.value as Promise<T>;
      }
      stats.misses++;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      const loadedIn = generation;
      // Cache the promise, so concurrent requests for the same key share one lookup.
      const value = Promise.resolve(load());
      entries.set(key, { expires: now + ttlMs, value, generation: loadedIn });
      value.catch(() => entries.delete(key));
      return value;
    },
    invalidate() {
      // A lookup already in flight when the write lands carries the old generation and is not served again.
      generation++;
      entries.clear();
      stats.invalidations++;
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
export function invalidateOnWrite(schema: Schema, cache: () => IdentityCache | undefined): void {
  const invalidate = (): void => cache()?.invalidate();
  schema.post('save', invalidate);
  schema.post('insertMany', invalidate);
  schema.post('bulkWrite' as 'save', invalidate);
  for (const op of WRITE_QUERIES) schema.post(op, invalidate);
}
