import { z } from 'zod';
import { isoTimestamp } from '../primitives';

/** Tag summary (Entities::ContainerRegistry::Tag): `path` = "<repository path>:<name>". */
export const registryTagEntity = z.object({
  name: z.string(),
  path: z.string(),
  location: z.string(),
});
export type RegistryTagEntity = z.infer<typeof registryTagEntity>;

/** Tag detail (Entities::ContainerRegistry::TagDetails). */
export const registryTagDetailEntity = registryTagEntity.extend({
  revision: z.string().nullable(),
  short_revision: z.string().nullable(),
  digest: z.string().nullable(),
  created_at: isoTimestamp.nullable(),
  total_size: z.number().int().nullable(),
});
export type RegistryTagDetailEntity = z.infer<typeof registryTagDetailEntity>;

export const registryRepositoryStatus = z.enum(['delete_scheduled', 'delete_failed', 'delete_ongoing']);

/** Repository (Entities::ContainerRegistry::Repository); `tags`/`tags_count`/`size` only when asked for. */
export const registryRepositoryEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  project_id: z.number().int(),
  location: z.string(),
  created_at: isoTimestamp,
  cleanup_policy_started_at: isoTimestamp.nullable(),
  status: registryRepositoryStatus.nullable(),
  delete_api_path: z.string().optional(),
  tags_count: z.number().int().optional(),
  tags: z.array(registryTagEntity).optional(),
  /** Bytes (`size=true` on GET /registry/repositories/:id); null when the registry does not say. */
  size: z.number().int().nullable().optional(),
});
export type RegistryRepositoryEntity = z.infer<typeof registryRepositoryEntity>;

/** One Docker distribution notification (docker/distribution notifications/event.go), the fields we read. */
export const registryNotificationEvent = z.object({
  id: z.string().optional(),
  timestamp: z.string().optional(),
  action: z.string(),
  target: z
    .object({
      mediaType: z.string().optional(),
      size: z.number().optional(),
      length: z.number().optional(),
      digest: z.string().optional(),
      repository: z.string(),
      tag: z.string().optional(),
    })
    .passthrough(),
});
export type RegistryNotificationEvent = z.infer<typeof registryNotificationEvent>;

export const registryNotificationEnvelope = z.object({ events: z.array(z.unknown()) });

/** Media type the registry posts notifications with. */
export const REGISTRY_EVENTS_MEDIA_TYPE = 'application/vnd.docker.distribution.events.v1+json';

/** `cmd.registry.repository.delete`: the cleanup worker deletes the tags, then the repository. */
export const repositoryDeleteRequestedData = z.object({ repositoryId: z.number().int() });

/** `cmd.registry.tags.cleanup`: a bulk delete with its (validated) parameters. */
export const tagsCleanupRequestedData = z.object({
  repositoryId: z.number().int(),
  nameRegexDelete: z.string(),
  nameRegexKeep: z.string().nullable(),
  keepN: z.number().int().nullable(),
  olderThan: z.string().nullable(),
});
export type TagsCleanupRequestedData = z.infer<typeof tagsCleanupRequestedData>;

/** Most tag names a bulk-delete dry run lists; `truncated` says when the run would delete more. */
export const BULK_DELETE_DRY_RUN_NAMES = 1000;

/**
 * A bulk tag delete's dry run (`dry_run=true`, not GitLab's): how many tags the real call would delete now
 * and their names in the order it deletes them (oldest first), at most BULK_DELETE_DRY_RUN_NAMES.
 */
export const bulkDeleteDryRunEntity = z.object({
  dry_run: z.literal(true),
  count: z.number().int(),
  tags: z.array(z.string()),
  truncated: z.boolean(),
});
export type BulkDeleteDryRunEntity = z.infer<typeof bulkDeleteDryRunEntity>;
