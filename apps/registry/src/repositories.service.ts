import {
  ACCESS_LEVELS,
  BULK_DELETE_DRY_RUN_NAMES,
  COMMAND_TYPES,
  type BulkDeleteDryRunEntity,
  type BulkDeleteTagsParams,
  type EventEnvelope,
  type InternalContext,
  type NamespaceContext,
} from '@gl/contracts';
import {
  BadRequestError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  atLeastOneOf,
  createEvent,
  eventActor,
  requestOrigin,
  type Outbox,
  type PageRequest,
} from '@gl/service-kit';
import { canReadImages, canSee, projectAccessLevel } from './access';
import { planTagsCleanup } from './cleanup-plan';
import type { ProjectRefDoc, RepositoryDoc, TagDoc } from './models';
import type { RepositoryView } from './registry.presenters';
import { deleteTags, repositoryPath, type RegistryDeps } from './registry.service';
import { regexpError, type CleanupRules } from './selection';

export const CLEANUP_RATE_LIMITED =
  'This request has already been made. You can run this at most once an hour for a given container repository';
/**
 * GitLab's rate limit on bulk tag deletion: one request an hour per repository (an ExclusiveLease taken by
 * ContainerRegistry::DeleteTagsService's caller in lib/api/project_container_repositories.rb, never
 * released). Not the ownership of a cleanup job (cleanup.worker.ts JOB_OWNERSHIP_MS), which says which
 * worker runs it.
 */
const BULK_DELETE_INTERVAL_MS = 3600_000;

/** What the API's writes need besides the registry's own dependencies: the outbox to wake. */
export interface RegistryApiDeps extends RegistryDeps {
  outbox: Outbox;
}

/** Which tag information a repository listing asks for. */
export interface TagOptions {
  tags?: boolean;
  tags_count?: boolean;
  /** GET /registry/repositories/:id only (lib/api/container_repositories.rb). */
  size?: boolean;
}

const isMaintainer = (level: number): boolean => level >= ACCESS_LEVELS.maintainer;

/** A command for the cleanup worker, sent with the repository write (same outbox, `cmd.>` subjects). */
function workerCommand(ctx: InternalContext, type: string, projectId: number, data: Record<string, unknown>) {
  return createEvent(requestOrigin('registry', ctx), {
    type,
    actor: eventActor(ctx.principal),
    projectId,
    data,
  });
}

/** The project's repository: 404 when it is missing or belongs to another project. */
export async function findRepository(
  deps: RegistryDeps,
  projectId: number,
  repositoryId: number,
): Promise<RepositoryDoc> {
  const repository = await deps.stores.repositories.findInProject(projectId, repositoryId);
  if (!repository) throw new NotFoundError();
  return repository;
}

/** Repositories with their display path, whether the caller may delete them, and the tag information asked for. */
export async function repositoryViews(
  deps: RegistryDeps,
  repositories: RepositoryDoc[],
  projectPaths: Map<number, string>,
  options: TagOptions,
  /** The caller's level on the repository's project: Maintainers may delete it. */
  levelOn: (repository: RepositoryDoc) => number,
): Promise<RepositoryView[]> {
  const { tags } = deps.stores;
  return Promise.all(
    repositories.map(async (repository) => {
      const projectPath = projectPaths.get(repository.projectId);
      const view: RepositoryView = {
        repository,
        path: projectPath ? repositoryPath(projectPath, repository.name) : repository.path,
        canAdmin: isMaintainer(levelOn(repository)),
      };
      if (options.tags_count) view.tagsCount = await tags.count(repository._id);
      if (options.tags) view.tagNames = await tags.names(repository);
      if (options.size) view.size = await tags.sizeOf(repository._id);
      return view;
    }),
  );
}

/**
 * The group's projects whose images the caller may read, with the caller's level on each: the group level
 * when it is Reporter+, else the projected memberships of each project.
 */
export async function readableProjectsInGroup(
  deps: RegistryDeps,
  ns: NamespaceContext,
  groupLevel: number,
  ctx: InternalContext,
): Promise<{ projects: ProjectRefDoc[]; levels: Map<number, number> }> {
  const store = deps.stores.projects;
  const projects = await store.inGroup(ns.id);
  const levels = new Map<number, number>();
  for (const project of projects) {
    const level =
      groupLevel >= ACCESS_LEVELS.reporter ? groupLevel : await projectAccessLevel(store, project, ctx);
    if (canReadImages(project.visibility, level, ctx, project.features)) levels.set(project._id, level);
  }
  return { projects, levels };
}

/** One project's repositories, by id. */
export async function pageOfProject(deps: RegistryDeps, projectId: number, page: PageRequest) {
  return deps.stores.repositories.pageOfProject(projectId, page);
}

/** The repositories of these projects, by id. */
export async function pageOfProjects(deps: RegistryDeps, projectIds: number[], page: PageRequest) {
  return deps.stores.repositories.pageOfProjects(projectIds, page);
}

/** A repository by id alone (GET /registry/repositories/:id): 404 when unknown. */
export async function repositoryById(deps: RegistryDeps, id: number): Promise<RepositoryDoc> {
  const repository = await deps.stores.repositories.findById(id);
  if (!repository) throw new NotFoundError();
  return repository;
}

/** The repository's project as the caller may read it: 404 unless they see it, 403 unless they read images. */
export async function projectReaderOf(
  deps: RegistryDeps,
  repository: RepositoryDoc,
  ctx: InternalContext,
): Promise<{ project: ProjectRefDoc; level: number }> {
  const store = deps.stores.projects;
  const project = await store.find(repository.projectId);
  if (!project) throw new NotFoundError();
  const level = await projectAccessLevel(store, project, ctx);
  if (!canSee(project.visibility, level, ctx)) throw new NotFoundError();
  if (!canReadImages(project.visibility, level, ctx, project.features)) throw new ForbiddenError();
  return { project, level };
}

/** Schedules the repository's deletion (Maintainer+): the worker deletes its tags, then it. */
export async function scheduleRepositoryDelete(
  deps: RegistryApiDeps,
  ctx: InternalContext,
  projectId: number,
  repository: RepositoryDoc,
  level: number,
): Promise<void> {
  if (!isMaintainer(level)) throw new ForbiddenError();
  const command = workerCommand(ctx, COMMAND_TYPES.registry.deleteRepository, projectId, {
    repositoryId: repository._id,
  });
  await deps.stores.repositories.scheduleDelete(repository._id, [command]);
  deps.outbox.kick(deps.stores.repositories.modelName);
}

/**
 * The bulk delete's rules from its parameters (lib/api/project_container_repositories.rb): every broken
 * expression and a missing delete expression, all in one 400. Nothing else is refused, as there: keep_n is
 * only an Integer (a negative one keeps nothing), older_than any String and an empty name_regex_delete a
 * valid expression matching no tag. An older_than ChronicDuration cannot read deletes nothing when the job
 * runs (cleanup_tags_base_service.rb `older_than_in_seconds`: nil.seconds fails it); selection.ts applies
 * them all as that service does. ContainerExpirationPolicy's lists of allowed keep_n and older_than values
 * (app/models/container_expiration_policy.rb) validate the project's cleanup policy, not this endpoint.
 */
export function cleanupRulesOf(params: BulkDeleteTagsParams): CleanupRules {
  const problems: string[] = [];
  for (const key of ['name_regex_delete', 'name_regex'] as const) {
    const source = params[key];
    const reason = source === undefined ? null : regexpError(source);
    if (reason !== null) problems.push(`${key} is an invalid regexp: ${reason}`);
  }
  const missing = atLeastOneOf('name_regex', 'name_regex_delete')(params);
  if (missing) problems.push(missing);
  const keepReason = params.name_regex_keep === undefined ? null : regexpError(params.name_regex_keep);
  if (keepReason !== null) problems.push(`name_regex_keep is an invalid regexp: ${keepReason}`);
  if (problems.length > 0) throw new ParamError(problems);
  return {
    nameRegexDelete: (params.name_regex_delete ?? params.name_regex)!,
    nameRegexKeep: params.name_regex_keep ?? null,
    keepN: params.keep_n ?? null,
    olderThan: params.older_than ?? null,
  };
}

/**
 * Queues a bulk tag delete (Maintainer+), at most once an hour per repository: the rate limit is taken
 * before the job runs and expires after the hour whatever the job does.
 */
export async function requestTagsCleanup(
  deps: RegistryApiDeps,
  ctx: InternalContext,
  projectId: number,
  repository: RepositoryDoc,
  level: number,
  rules: CleanupRules,
): Promise<void> {
  if (!isMaintainer(level)) throw new ForbiddenError();
  const now = new Date();
  const command: EventEnvelope = workerCommand(ctx, COMMAND_TYPES.registry.cleanupTags, projectId, {
    repositoryId: repository._id,
    ...rules,
  });
  const nextSlotAt = new Date(now.getTime() + BULK_DELETE_INTERVAL_MS);
  const taken = await deps.stores.repositories.takeBulkDeleteSlot(repository._id, now, nextSlotAt, [command]);
  if (!taken) throw new HttpError(400, { message: CLEANUP_RATE_LIMITED });
  deps.outbox.kick(deps.stores.repositories.modelName);
}

/**
 * A bulk delete's dry run (not GitLab's): the same permission as the real call, then the worker's own plan
 * over the tags as they are now, with the same per-run cap. Takes no rate-limit slot and writes nothing.
 */
export async function previewTagsCleanup(
  deps: RegistryDeps,
  repository: RepositoryDoc,
  level: number,
  rules: CleanupRules,
  maxPerRun: number,
): Promise<BulkDeleteDryRunEntity> {
  if (!isMaintainer(level)) throw new ForbiddenError();
  const { selection } = await planTagsCleanup(deps, repository, rules, new Date(), maxPerRun);
  const names = selection.toDelete;
  return {
    dry_run: true,
    count: names.length,
    tags: names.slice(0, BULK_DELETE_DRY_RUN_NAMES),
    truncated: names.length > BULK_DELETE_DRY_RUN_NAMES,
  };
}

/** The repository's tag names in ascending order (GitLab pages tags by name). */
export async function tagNames(deps: RegistryDeps, repository: RepositoryDoc): Promise<string[]> {
  return deps.stores.tags.names(repository);
}

/** A keyset page of the repository's tag names, by name from after `last` (tags.store.ts namesAfter). */
export async function tagNamesAfter(
  deps: RegistryDeps,
  repository: RepositoryDoc,
  last: string | undefined,
  descending: boolean,
  limit: number,
): Promise<string[]> {
  return deps.stores.tags.namesAfter(repository._id, last, descending, limit);
}

export async function findTag(deps: RegistryDeps, repository: RepositoryDoc, name: string): Promise<TagDoc> {
  const tag = await deps.stores.tags.find(repository._id, name);
  if (!tag) throw new NotFoundError('Tag');
  return tag;
}

/** Deletes one tag (Developer+, checked before the tag is looked up); 400 when the registry refuses. */
export async function deleteTag(
  deps: RegistryDeps,
  repository: RepositoryDoc,
  name: string,
  level: number,
): Promise<void> {
  if (level < ACCESS_LEVELS.developer) throw new ForbiddenError();
  const tag = await findTag(deps, repository, name);
  const outcome = await deleteTags(deps, repository, [tag.name]);
  if (outcome.failed > 0) throw new BadRequestError();
}
