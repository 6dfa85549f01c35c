import type { Logger } from 'pino';
import type { RegistryNotificationEvent } from '@gl/contracts';
import type { ProjectRefDoc, RepositoryDoc, TagLayer } from './models';
import type { RegistryClient } from './registry-client';
import type { RegistryStores } from './stores';
import type { TagSnapshot } from './tags.store';

export { LARGE_DELETE, type TagSnapshot } from './tags.store';

export interface RegistryDeps {
  stores: RegistryStores;
  logger: Logger;
  /** Present when REGISTRY_API_URL is configured. */
  client: RegistryClient | null;
}

/** `[project full path, name].compact.join('/').downcase` */
export function repositoryPath(projectFullPath: string, name: string): string {
  return (name ? `${projectFullPath}/${name}` : projectFullPath).toLowerCase();
}

/** The project a registry repository name belongs to: the longest known project path prefix (2+ segments). */
async function projectForRepositoryPath(
  deps: Pick<RegistryDeps, 'stores'>,
  repository: string,
): Promise<{ project: ProjectRefDoc; name: string } | null> {
  const segments = repository.toLowerCase().split('/');
  const prefixes: string[] = [];
  for (let i = 2; i <= segments.length; i++) prefixes.push(segments.slice(0, i).join('/'));
  if (prefixes.length === 0) return null;
  const found = await deps.stores.projects.withPaths(prefixes);
  if (found.length === 0) return null;
  const project = found.sort((a, b) => b.fullPathLower.length - a.fullPathLower.length)[0]!;
  const name = repository.slice(project.fullPathLower.length).replace(/^\//, '');
  return { project, name };
}

const BLOB_TYPES = new Set(['application/octet-stream', 'application/vnd.docker.image.rootfs.diff.tar.gzip']);

/** Applies one registry notification: push of a tagged manifest records the tag, delete removes tags. */
export async function applyNotification(deps: RegistryDeps, event: RegistryNotificationEvent): Promise<void> {
  const { target } = event;
  if (target.mediaType && BLOB_TYPES.has(target.mediaType)) return;
  const resolved = await projectForRepositoryPath(deps, target.repository);
  if (!resolved) {
    deps.logger.warn({ repository: target.repository }, 'registry event for an unknown project ignored');
    return;
  }
  const { repositories, tags } = deps.stores;
  const { project, name } = resolved;
  if (event.action === 'push') {
    if (!target.tag) return;
    const repository = await repositories.ensure({
      projectId: project._id,
      name,
      path: repositoryPath(project.fullPath, name),
    });
    const pushedAt = event.timestamp ? new Date(event.timestamp) : new Date();
    let details = {
      digest: target.digest ?? null,
      revision: null as string | null,
      createdAt: Number.isNaN(pushedAt.getTime()) ? new Date() : pushedAt,
      totalSize: target.size ?? target.length ?? null,
      layers: null as TagLayer[] | null,
    };
    if (deps.client) {
      const fetched = await deps.client
        .tagDetails(target.repository, target.digest ?? target.tag)
        .catch((err: unknown) => {
          deps.logger.warn({ err, repository: target.repository }, 'registry manifest read failed');
          return null;
        });
      if (fetched) details = { ...fetched, createdAt: fetched.createdAt ?? details.createdAt };
    }
    await tags.record(repository._id, target.tag, pushedAt, details);
    return;
  }
  if (event.action === 'delete') {
    const repository = await repositories.findByName(project._id, name);
    if (!repository) return;
    await tags.forget(repository._id, { tag: target.tag, digest: target.digest });
  }
}

export interface DeleteOutcome {
  deleted: number;
  failed: number;
}

/**
 * Deletes tags of one repository: on the registry first (manifest by digest, when configured and no
 * surviving tag shares the digest), then here. Idempotent: a tag already gone counts as deleted. Large
 * deletions from a job's snapshot spare tags written after it (the tags store's remove).
 */
export async function deleteTags(
  deps: RegistryDeps,
  repository: Pick<RepositoryDoc, '_id' | 'path'>,
  names: string[],
  snapshot?: TagSnapshot,
): Promise<DeleteOutcome> {
  const { tags } = deps.stores;
  const known = snapshot?.tags ?? (await tags.digestsOf(repository._id, names));
  const byName = new Map(known.map((t) => [t.name, t]));
  const leaving = new Set(names);
  const present = names.filter((n) => byName.has(n));
  let removed = present;
  let failed = 0;
  if (deps.client) {
    const surviving = new Set(known.filter((t) => !leaving.has(t.name) && t.digest).map((t) => t.digest));
    if (!snapshot) {
      // Only the leaving tags were loaded: ask which other tags share their digests.
      const digests = [...new Set(present.map((n) => byName.get(n)!.digest).filter((d): d is string => !!d))];
      const sharing = await tags.withDigests(repository._id, digests);
      for (const t of sharing) if (!leaving.has(t.name)) surviving.add(t.digest);
    }
    const done = new Set<string>();
    removed = [];
    for (const name of present) {
      const digest = byName.get(name)!.digest;
      if (digest && !surviving.has(digest) && !done.has(digest)) {
        const ok = await deps.client.deleteManifest(repository.path, digest).catch(() => false);
        if (!ok) {
          failed++;
          continue;
        }
        done.add(digest);
      }
      removed.push(name);
    }
  }
  if (names.length > 0) await tags.remove(repository._id, removed, snapshot);
  return { deleted: removed.length + (names.length - present.length), failed };
}
