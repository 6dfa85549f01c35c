import type { RepositoryDoc } from './models';

/**
 * Sorted tag names per repository, reloaded only when the repository's `tagsVersion` moved: paging through
 * 100,000 tags costs one scan per change instead of a count, sort and skip per page (FerretDB sorts and skips
 * in memory). Tag names are ASCII (`[\w][\w.-]*`), so code-unit order is the registry's byte order.
 *
 * Bounded by the names it holds, not by repositories: 16 repositories held 16% of the GitLab-like mix's
 * (100 projects with 1,000 tags each), so most tag lists loaded and sorted their repository's names again.
 * 200,000 names of at most 128 characters are tens of megabytes at worst.
 */
export interface TagNameCache {
  names(repository: Pick<RepositoryDoc, '_id' | 'tagsVersion'>): Promise<string[]>;
}

export function createTagNameCache(
  load: (repositoryId: number) => Promise<string[]>,
  maxNames = 200_000,
): TagNameCache {
  const entries = new Map<number, { version: number; names: Promise<string[]>; count: number }>();
  let held = 0;
  const forget = (id: number): void => {
    held -= entries.get(id)?.count ?? 0;
    entries.delete(id);
  };
  return {
    names(repository) {
      const version = repository.tagsVersion ?? 0;
      const hit = entries.get(repository._id);
      if (hit && hit.version === version) {
        entries.delete(repository._id);
        entries.set(repository._id, hit); // most recently used last (its count stays held)
        return hit.names;
      }
      forget(repository._id);
      const entry = { version, names: Promise.resolve<string[]>([]), count: 0 };
      entry.names = load(repository._id).then((loaded) => {
        loaded.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        // Counted once loaded, if still the entry held (a newer version may have replaced it meanwhile).
        if (entries.get(repository._id) === entry) {
          entry.count = loaded.length;
          held += loaded.length;
          // The least recently used go first; a lone repository stays even when over the bound.
          while (held > maxNames && entries.size > 1) forget(entries.keys().next().value!);
        }
        return loaded;
      });
      entries.set(repository._id, entry);
      entry.names.catch(() => {
        if (entries.get(repository._id) === entry) forget(repository._id);
      });
      return entry.names;
    },
  };
}
