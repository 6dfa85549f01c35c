import { Schema, type Connection, type Model } from 'mongoose';
import {
  addOutboxFields,
  defineModel,
  documentSchema,
  membershipSchema,
  type FeatureLevels,
  type MembershipData,
  type Outbox,
} from '@gl/service-kit';
import type { Visibility } from '@gl/contracts';

/** The registry's copy of a project (from identity events): notification paths and access checks. */
export interface ProjectRefDoc {
  _id: number;
  fullPath: string;
  fullPathLower: string;
  visibility: Visibility;
  ancestorGroupIds: number[];
  destroyed: boolean;
  /** Feature levels from the identity events (container_registry among them); null or absent: all enabled. */
  features?: FeatureLevels;
}

export interface GroupRefDoc {
  _id: number;
  fullPath: string;
  ancestorGroupIds: number[];
  visibility: Visibility;
  destroyed: boolean;
}

/** A membership as identity events carry it, keyed by `membershipId` (`<sourceType>:<sourceId>:<userId>`). */
export interface MemberRefDoc extends MembershipData {
  _id: string;
}

export type RepositoryStatus = 'delete_scheduled' | 'delete_failed' | 'delete_ongoing';

export interface RepositoryDoc {
  _id: number;
  projectId: number;
  /** "" for the project's root repository. */
  name: string;
  /** Lower-case `<project full path>[/<name>]`, the registry's repository name. */
  path: string;
  createdAt: Date;
  status: RepositoryStatus | null;
  cleanupPolicyStartedAt: Date | null;
  /**
   * The bulk-delete rate limit: no second bulk tag delete on this repository before this time (GitLab's
   * hourly ExclusiveLease). Stored under its first name, which documents written since carry; written only
   * by RepositoriesStore.takeBulkDeleteSlot. Unrelated to a cleanup job's ownership (CleanupJobDoc).
   */
  cleanupLeaseUntil: Date | null;
  /** Bumped after every tag write, so readers know when their cached tag list is stale. */
  tagsVersion?: number;
}

export interface TagDoc {
  /** `<repositoryId>:<name>` */
  _id: string;
  repositoryId: number;
  name: string;
  digest: string | null;
  revision: string | null;
  /** Image creation time (config `created`), else the push time. */
  createdAt: Date | null;
  totalSize: number | null;
  /**
   * The manifest's layers (digest and size) when the registry's manifest was read; absent when only the
   * notification was seen. The repository's size counts each layer once (ContainerRepository#size).
   */
  layers?: TagLayer[] | null;
  pushedAt: Date;
  /** When this service last wrote the tag (bulk deletes never remove tags written after their snapshot). */
  writtenAt?: Date;
}

/** One layer blob of a tag's manifest. */
export interface TagLayer {
  digest: string;
  size: number;
}

/** One cleanup job (keyed by its event id): who runs it, until when, and whether it is finished. */
export interface CleanupJobDoc {
  _id: string;
  state: 'running' | 'done';
  owner: string;
  /**
   * Until when `owner` owns the running job (renewed while it runs; then another worker may take it over).
   * Stored under its first name; read and written only by CleanupJobsStore. Unrelated to the repository's
   * bulk-delete rate limit.
   */
  leaseUntil: Date;
  counts?: Record<string, number>;
  finishedAt?: Date;
}

export interface RegistryModels {
  projects: Model<ProjectRefDoc>;
  groups: Model<GroupRefDoc>;
  members: Model<MemberRefDoc>;
  repositories: Model<RepositoryDoc>;
  tags: Model<TagDoc>;
  jobs: Model<CleanupJobDoc>;
}

export function registryModels(connection: Connection, outbox?: Outbox): RegistryModels {
  const projectSchema = documentSchema<ProjectRefDoc>({
    _id: Number,
    fullPath: String,
    fullPathLower: { type: String, index: true },
    visibility: String,
    ancestorGroupIds: { type: [Number], index: true },
    destroyed: Boolean,
  });
  const groupSchema = documentSchema<GroupRefDoc>({
    _id: Number,
    fullPath: String,
    ancestorGroupIds: [Number],
    visibility: String,
    destroyed: Boolean,
  });
  const memberSchema = membershipSchema();
  const repositorySchema = documentSchema<RepositoryDoc>({
    _id: Number,
    projectId: Number,
    name: String,
    path: String,
    createdAt: Date,
    status: { type: String, default: null },
    cleanupPolicyStartedAt: { type: Date, default: null },
    cleanupLeaseUntil: { type: Date, default: null },
    tagsVersion: { type: Number, default: 0 },
  });
  repositorySchema.index({ projectId: 1, name: 1 }, { unique: true });
  addOutboxFields(repositorySchema);
  const tagSchema = documentSchema<TagDoc>({
    _id: String,
    repositoryId: Number,
    name: String,
    digest: { type: String, default: null },
    revision: { type: String, default: null },
    createdAt: { type: Date, default: null },
    totalSize: { type: Number, default: null },
    layers: { type: Schema.Types.Mixed, default: undefined },
    pushedAt: Date,
    writtenAt: Date,
  });
  tagSchema.index({ repositoryId: 1, name: 1 });
  tagSchema.index({ repositoryId: 1, digest: 1 });
  const jobSchema = documentSchema<CleanupJobDoc>({
    _id: String,
    state: String,
    owner: String,
    leaseUntil: Date,
    counts: Schema.Types.Mixed,
    finishedAt: Date,
  });
  const models: RegistryModels = {
    projects: defineModel(connection, 'RegistryProject', projectSchema, 'projects'),
    groups: defineModel(connection, 'RegistryGroup', groupSchema, 'groups'),
    members: defineModel(connection, 'RegistryMember', memberSchema, 'members'),
    repositories: defineModel(connection, 'RegistryRepository', repositorySchema, 'repositories'),
    tags: defineModel(connection, 'RegistryTag', tagSchema, 'tags'),
    jobs: defineModel(connection, 'RegistryCleanupJob', jobSchema, 'cleanup_jobs'),
  };
  outbox?.register(models.repositories);
  return models;
}
