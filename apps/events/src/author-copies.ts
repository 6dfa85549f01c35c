import type { ProjectionVersion } from '@gl/service-kit';
import type { UserDoc } from './events.models';
import type { UsersStore } from './users.store';

/** How long an author's copy is shown without reading it again (another replica's identity writes). */
export const AUTHOR_COPIES_TTL_MS = 10_000;
/** Authors kept at most; the least recently loaded goes first. */
const MAX_AUTHORS = 10_000;

interface Entry {
  doc: UserDoc;
  version: number;
  loadedAt: number;
}

/**
 * The user copies activity pages show their authors from (name, username, avatar, the Ghost User for a
 * deleted one), kept per process: a page of 20 events read its authors again on every request, one round
 * trip per list, while feeds are written by few authors. An entry is served while this process's identity
 * consumer changed nothing since it was read (`version`: a rename or deletion applied here shows on the
 * next request) and for at most `ttlMs` (one applied by another replica). Only authors shown are cached:
 * which events a caller reads is decided elsewhere, on every request. A user the copy does not have yet is
 * not remembered, so the recorder's later copy shows at once.
 */
export function createAuthorCopies(
  users: Pick<UsersStore, 'byIds'>,
  version: Pick<ProjectionVersion, 'value'>,
  ttlMs = AUTHOR_COPIES_TTL_MS,
  maxEntries = MAX_AUTHORS,
): Pick<UsersStore, 'byIds'> {
  const entries = new Map<number, Entry>();
  return {
    async byIds(ids) {
      const now = Date.now();
      const found: UserDoc[] = [];
      const missing: number[] = [];
      for (const id of new Set(ids)) {
        const entry = entries.get(id);
        if (entry && entry.version === version.value && now - entry.loadedAt < ttlMs) found.push(entry.doc);
        else missing.push(id);
      }
      if (missing.length === 0) return found;
      const readAt = version.value;
      for (const doc of await users.byIds(missing)) {
        found.push(doc);
        entries.delete(doc._id);
        entries.set(doc._id, { doc, version: readAt, loadedAt: now });
      }
      // Map order is insertion order: the first keys are the least recently loaded.
      for (const id of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(id);
      }
      return found;
    },
  };
}
