import type { RegistryRepositoryEntity, RegistryTagDetailEntity, RegistryTagEntity } from '@gl/contracts';
import type { RepositoryDoc, TagDoc } from './models';

/** Entities::ContainerRegistry::Tag. */
export function presentTag(path: string, host: string, name: string): RegistryTagEntity {
  return { name, path: `${path}:${name}`, location: `${host}/${path}:${name}` };
}

/** Entities::ContainerRegistry::TagDetails. */
export function presentTagDetail(path: string, host: string, tag: TagDoc): RegistryTagDetailEntity {
  return Object.assign(presentTag(path, host, tag.name), {
    revision: tag.revision,
    short_revision: tag.revision ? tag.revision.slice(0, 9) : null,
    digest: tag.digest,
    created_at: tag.createdAt ? tag.createdAt.toISOString() : null,
    total_size: tag.totalSize,
  });
}

/** A repository as a reader sees it, with the tag information they asked for. */
export interface RepositoryView {
  repository: RepositoryDoc;
  /** `<project full path>[/<name>]` in lower case. */
  path: string;
  /** The reader may delete it (Maintainer+). */
  canAdmin: boolean;
  tagsCount?: number;
  tagNames?: string[];
  /** Asked for with `size=true`; null when the registry has not told every tag's size. */
  size?: number | null;
}

/** Entities::ContainerRegistry::Repository. */
export function presentRepository(
  view: RepositoryView,
  urls: { host: string; externalUrl: string },
): RegistryRepositoryEntity {
  const { repository, path } = view;
  const entity: RegistryRepositoryEntity = {
    id: repository._id,
    name: repository.name,
    path,
    project_id: repository.projectId,
    location: `${urls.host}/${path}`,
    created_at: repository.createdAt.toISOString(),
    cleanup_policy_started_at: repository.cleanupPolicyStartedAt?.toISOString() ?? null,
    status: repository.status,
  };
  if (view.canAdmin) {
    entity.delete_api_path = `${urls.externalUrl}/api/v4/projects/${repository.projectId}/registry/repositories/${repository._id}`;
  }
  if (view.tagsCount !== undefined) entity.tags_count = view.tagsCount;
  if (view.tagNames) entity.tags = view.tagNames.map((name) => presentTag(path, urls.host, name));
  if (view.size !== undefined) entity.size = view.size;
  return entity;
}
