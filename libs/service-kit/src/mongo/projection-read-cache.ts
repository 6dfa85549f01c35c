import type { ProjectionVersion } from './projection-revisions';

interface Entry<T> {
  /** The process's projection version when the read started. */
  version: number;
  loadedAt: number;
  /** The identity revision the projection had applied when the read started. */
  revision: number;
  value: Promise<T>;
}

export interface ProjectionReadCache<K, T> {
  /**
   * The entry for `key` when it is fresh for a request that needs identity revision `needed`, else
   * `load()`'s answer, kept tagged with `revisionNow` (what the projection had applied as the read starts).
   */
  get(key: K, needed: number, revisionNow: number, load: () => Promise<T>): Promise<T>;
}

/**
 * Reads of an identity projection kept per process, the way every service that checks access with them
 * keeps them (events' access rows, discussions' group-list scope). An entry is served only while
 * - this process's consumer changed nothing since it was read (`version`);
 * - it was read when the projection had applied at least the revision the request needs: a change applied
 *   by another replica comes with a newer revision on the next request (ProjectionRevisions.caughtUp), so a
 *   revocation is seen on the next request wherever it was applied;
 * - it is younger than `ttlMs` (0 keeps nothing).
 * At most `maxEntries` keys are kept, the least recently loaded going first; a failed read is not kept.
 */
export function createProjectionReadCache<K, T>(
  version: Pick<ProjectionVersion, 'value'>,
  ttlMs: number,
  maxEntries: number,
): ProjectionReadCache<K, T> {
  const entries = new Map<K, Entry<T>>();
  return {
    get(key, needed, revisionNow, load) {
      const hit = entries.get(key);
      const now = Date.now();
      if (hit && hit.version === version.value && hit.revision >= needed && now - hit.loadedAt < ttlMs) {
        return hit.value;
      }
      if (ttlMs <= 0) return load();
      const entry: Entry<T> = { version: version.value, loadedAt: now, revision: revisionNow, value: load() };
      entry.value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      entries.delete(key);
      entries.set(key, entry);
      // Map order is insertion order: the first key is the least recently loaded.
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      return entry.value;
    },
  };
}
