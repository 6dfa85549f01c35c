import type { RepositoryDoc } from './models';

/**
 * Sorted tag names per repository, reloaded only when the repository's `tagsVersion` moved: paging through
 * 100,000 tags costs one scan per change instead of a count, sort and skip per page (FerretDB sorts and skips
 * in memory). Tag names are ASCII (`[\w][\w.-]*`), so code-unit order is the registry's byte order.
 */
export interface TagNameCache {
  names(repository: Pick<RepositoryDoc, '_id' | 'tagsVersion'>): Promise<string[]>;
}

export function createTagNameCache(
  load: (repositoryId: number) => Promise<string[]>,
  maxRepositories = 16,
): TagNameCache {
  const entries = new Map<number, { version: number; names: Promise<string[]> }>();
  return {
    names(repository) {
      const version = repository.tagsVersion ?? 0;
      const hit = entries.get(repository._id);
      if (hit && hit.version === version) {
        entries.delete(repository._id);
        entries.set(repository._id, hit); // most recently used last
        return hit.names;
      }
      const names = load(repository._id).then((loaded) =>
        loaded.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
      );
      entries.delete(repository._id);
      entries.set(repository._id, { version, names });
      names.catch(() => entries.delete(repository._id));
      while (entries.size > maxRepositories) entries.delete(entries.keys().next().value!);
      return names;
    },
  };
}
