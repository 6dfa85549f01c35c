import type { Logger } from 'pino';
import { deleteManyInBatches, isDuplicateKeyError, type Counters } from '@gl/service-kit';
import type { RegistryNotificationEvent } from '@gl/contracts';
import type { ProjectRefDoc, RegistryModels, RepositoryDoc, TagDoc } from './models';
import type { RegistryClient } from './registry-client';

export interface RegistryDeps {
  models: RegistryModels;
  counters: Counters;
  logger: Logger;
  /** Present when REGISTRY_API_URL is configured. */
  client: RegistryClient | null;
}

export const tagId = (repositoryId: number, name: string): string => `${repositoryId}:${name}`;

/** Marks the repository's tag list as changed (see TagNameCache). */
export async function touchTags(deps: Pick<RegistryDeps, 'models'>, repositoryId: number): Promise<void> {
  await deps.models.repositories.updateOne({ _id: repositoryId }, { $inc: { tagsVersion: 1 } });
}

/** `[project full path, name].compact.join('/').downcase` */
export function repositoryPath(projectFullPath: string, name: string): string {
  return (name ? `${projectFullPath}/${name}` : projectFullPath).toLowerCase();
}

/** The project a registry repository name belongs to: the longest known project path prefix (2+ segments). */
export async function projectForRepositoryPath(
  models: RegistryModels,
  repository: string,
): Promise<{ project: ProjectRefDoc; name: string } | null> {
  const segments = repository.toLowerCase().split('/');
  const prefixes: string[] = [];
  for (let i = 2; i <= segments.length; i++) prefixes.push(segments.slice(0, i).join('/'));
  if (prefixes.length === 0) return null;
  const found = await models.projects
    .find({ fullPathLower: { $in: prefixes }, destroyed: { $ne: true } })
    .lean<ProjectRefDoc[]>();
  if (found.length === 0) return null;
  const project = found.sort((a, b) => b.fullPathLower.length - a.fullPathLower.length)[0]!;
  const name = repository.slice(project.fullPathLower.length).replace(/^\//, '');
  return { project, name };
}

export async function ensureRepository(
  deps: RegistryDeps,
  project: ProjectRefDoc,
  name: string,
): Promise<RepositoryDoc> {
  const existing = await deps.models.repositories
    .findOne({ projectId: project._id, name })
    .lean<RepositoryDoc>();
  if (existing) return existing;
  const doc: RepositoryDoc = {
    _id: await deps.counters.next('registry_repositories'),
    projectId: project._id,
    name,
    path: repositoryPath(project.fullPath, name),
    createdAt: new Date(),
    status: null,
    cleanupPolicyStartedAt: null,
    cleanupLeaseUntil: null,
  };
  try {
    await deps.models.repositories.create(doc);
    return doc;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    const raced = await deps.models.repositories
      .findOne({ projectId: project._id, name })
      .lean<RepositoryDoc>();
    if (!raced) throw err;
    return raced;
  }
}

const BLOB_TYPES = new Set(['application/octet-stream', 'application/vnd.docker.image.rootfs.diff.tar.gzip']);

/** Applies one registry notification: push of a tagged manifest records the tag, delete removes tags. */
export async function applyNotification(deps: RegistryDeps, event: RegistryNotificationEvent): Promise<void> {
  const { target } = event;
  if (target.mediaType && BLOB_TYPES.has(target.mediaType)) return;
  const resolved = await projectForRepositoryPath(deps.models, target.repository);
  if (!resolved) {
    deps.logger.warn({ repository: target.repository }, 'registry event for an unknown project ignored');
    return;
  }
  if (event.action === 'push') {
    if (!target.tag) return;
    const repository = await ensureRepository(deps, resolved.project, resolved.name);
    const pushedAt = event.timestamp ? new Date(event.timestamp) : new Date();
    let details = {
      digest: target.digest ?? null,
      revision: null as string | null,
      createdAt: Number.isNaN(pushedAt.getTime()) ? new Date() : pushedAt,
      totalSize: target.size ?? target.length ?? null,
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
    await deps.models.tags.updateOne(
      { _id: tagId(repository._id, target.tag) },
      {
        $set: { repositoryId: repository._id, name: target.tag, pushedAt, writtenAt: new Date(), ...details },
      },
      { upsert: true },
    );
    await touchTags(deps, repository._id);
    return;
  }
  if (event.action === 'delete') {
    const repository = await deps.models.repositories
      .findOne({ projectId: resolved.project._id, name: resolved.name })
      .lean<RepositoryDoc>();
    if (!repository) return;
    if (target.tag) await deps.models.tags.deleteOne({ _id: tagId(repository._id, target.tag) });
    else if (target.digest)
      await deps.models.tags.deleteMany({ repositoryId: repository._id, digest: target.digest });
    await touchTags(deps, repository._id);
  }
}

export interface DeleteOutcome {
  deleted: number;
  failed: number;
}

/** The repository's tags as a job loaded them, and when: tags written later are never deleted in bulk. */
export interface TagSnapshot {
  tags: Pick<TagDoc, 'name' | 'digest'>[];
  takenAt: Date;
  /** The repository's `tagsVersion` read before the tags: a later tag write changes it. */
  tagsVersion: number;
}

/** Above this many deletions, tags go by id in unordered bulk writes checked against the snapshot. */
export const LARGE_DELETE = 1000;
const BATCH = 1000;

/**
 * Deletes the snapshot's tags by `_id` (FerretDB finds and deletes by a string `_id` through its index;
 * any other condition scans the collection, which made 100,000-tag deletes quadratic). Between batches
 * the repository's `tagsVersion` shows whether a tag was written since the snapshot; if so, the rest go
 * through the guarded delete that spares tags written after it.
 */
async function deleteSnapshotTags(
  deps: RegistryDeps,
  repositoryId: number,
  names: string[],
  snapshot: TagSnapshot,
): Promise<void> {
  for (let i = 0; i < names.length; i += BATCH) {
    const ids = names.slice(i, i + BATCH).map((n) => tagId(repositoryId, n));
    const current = await deps.models.repositories
      .findOne({ _id: repositoryId })
      .select({ tagsVersion: 1 })
      .lean<Pick<RepositoryDoc, 'tagsVersion'>>();
    if ((current?.tagsVersion ?? 0) !== snapshot.tagsVersion) {
      const rest = names.slice(i).map((n) => tagId(repositoryId, n));
      await deleteManyInBatches(deps.models.tags, {
        _id: { $in: rest },
        writtenAt: { $not: { $gte: snapshot.takenAt } },
      });
      return;
    }
    await deps.models.tags.bulkWrite(
      ids.map((id) => ({ deleteOne: { filter: { _id: id } } })),
      { ordered: false },
    );
  }
}

/**
 * Deletes tags of one repository: on the registry first (manifest by digest, when configured and no
 * surviving tag shares the digest), then here. Idempotent: a tag already gone counts as deleted. Large
 * deletions from a job's snapshot go by id (deleteSnapshotTags).
 */
export async function deleteTags(
  deps: RegistryDeps,
  repository: Pick<RepositoryDoc, '_id' | 'path'>,
  names: string[],
  snapshot?: TagSnapshot,
): Promise<DeleteOutcome> {
  const known =
    snapshot?.tags ??
    (await deps.models.tags
      .find({ _id: { $in: names.map((n) => tagId(repository._id, n)) } }, { name: 1, digest: 1 })
      .lean<Pick<TagDoc, 'name' | 'digest'>[]>());
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
      const sharing = await deps.models.tags
        .find({ repositoryId: repository._id, digest: { $in: digests } }, { name: 1, digest: 1 })
        .lean<Pick<TagDoc, 'name' | 'digest'>[]>();
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
  if (snapshot && removed.length > LARGE_DELETE) {
    await deleteSnapshotTags(deps, repository._id, removed, snapshot);
  } else {
    for (let i = 0; i < removed.length; i += BATCH) {
      const batch = removed.slice(i, i + BATCH).map((n) => tagId(repository._id, n));
      await deps.models.tags.deleteMany({ _id: { $in: batch } });
    }
  }
  if (names.length > 0) await touchTags(deps, repository._id);
  return { deleted: removed.length + (names.length - present.length), failed };
}
