import { Router, type Request } from 'express';
import {
  ACCESS_LEVELS,
  COMMAND_TYPES,
  bulkDeleteTagsParams,
  getRegistryRepositoryQuery,
  listRegistryRepositoriesQuery,
  listRegistryTagsQuery,
  registryNotificationEnvelope,
  registryNotificationEvent,
  repositoryIdParams,
  tagParams,
  type InternalContext,
  type RegistryRepositoryEntity,
  type RegistryTagDetailEntity,
  type RegistryTagEntity,
} from '@gl/contracts';
import {
  BadRequestError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  UnauthorizedError,
  accessLevelOf,
  atLeastOneOf,
  collectParams,
  createEvent,
  parseParams,
  pushEvents,
  projectionCaughtUp,
  readPageRequest,
  requireNamespace,
  requireUser,
  secretsEqual,
  sendJson,
  setPaginationHeaders,
  type Outbox,
  type ProjectionRevisions,
  findPage,
} from '@gl/service-kit';
import { canReadImages, canSee, projectAccessLevel } from './access';
import type { RegistryConfig } from './config';
import type { ProjectRefDoc, RepositoryDoc, TagDoc } from './models';
import { applyNotification, deleteTags, repositoryPath, tagId, type RegistryDeps } from './registry.service';
import { regexpError } from './selection';
import { createTagNameCache } from './tag-names.cache';

export const CLEANUP_RATE_LIMITED =
  'This request has already been made. You can run this at most once an hour for a given container repository';
/**
 * GitLab's rate limit on bulk tag deletion (an exclusive lease per repository, never released): one request
 * an hour. Not the cleanup worker's job lease (cleanup.worker.ts JOB_LEASE_MS), which says who runs a job.
 */
const BULK_DELETE_INTERVAL_MS = 3600_000;

export interface RouterDeps extends RegistryDeps {
  config: Pick<RegistryConfig, 'REGISTRY_HOST' | 'REGISTRY_NOTIFICATION_SECRET'>;
  outbox: Outbox;
  /**
   * The group list and GET /registry/repositories/:id decide from the identity projection (visibility and
   * memberships of projects the gateway did not resolve): they wait until it has applied the request's
   * identity revisions, so a removal or a visibility change counts on the next request (else 503).
   */
  revisions: Pick<ProjectionRevisions, 'caughtUp'>;
}

function presentTag(path: string, host: string, name: string): RegistryTagEntity {
  return { name, path: `${path}:${name}`, location: `${host}/${path}:${name}` };
}

function presentTagDetail(path: string, host: string, tag: TagDoc): RegistryTagDetailEntity {
  return {
    ...presentTag(path, host, tag.name),
    revision: tag.revision,
    short_revision: tag.revision ? tag.revision.slice(0, 9) : null,
    digest: tag.digest,
    created_at: tag.createdAt ? tag.createdAt.toISOString() : null,
    total_size: tag.totalSize,
  };
}

export function createRegistryRouter(deps: RouterDeps): Router {
  const { models } = deps;
  const host = deps.config.REGISTRY_HOST;
  const router = Router();
  const tagNames = createTagNameCache(models);

  async function presentRepositories(
    ctx: InternalContext,
    repositories: RepositoryDoc[],
    paths: Map<number, string>,
    options: { tags?: boolean; tags_count?: boolean },
    canAdmin: (repository: RepositoryDoc) => boolean,
  ): Promise<RegistryRepositoryEntity[]> {
    return Promise.all(
      repositories.map(async (repository) => {
        const projectPath = paths.get(repository.projectId);
        const path = projectPath ? repositoryPath(projectPath, repository.name) : repository.path;
        const entity: RegistryRepositoryEntity = {
          id: repository._id,
          name: repository.name,
          path,
          project_id: repository.projectId,
          location: `${host}/${path}`,
          created_at: repository.createdAt.toISOString(),
          cleanup_policy_started_at: repository.cleanupPolicyStartedAt?.toISOString() ?? null,
          status: repository.status,
        };
        if (canAdmin(repository)) {
          entity.delete_api_path = `${ctx.externalUrl}/api/v4/projects/${repository.projectId}/registry/repositories/${repository._id}`;
        }
        if (options.tags_count)
          entity.tags_count = await models.tags.countDocuments({ repositoryId: repository._id });
        if (options.tags) {
          entity.tags = (await tagNames.names(repository)).map((name) => presentTag(path, host, name));
        }
        return entity;
      }),
    );
  }

  /** Project routes: the gateway resolved the project; reading needs read_container_image. */
  function projectRead(req: Request): { projectId: number; fullPath: string; level: number } {
    const ns = requireNamespace(req.ctx, 'project');
    const level = accessLevelOf(req.ctx);
    if (!canReadImages(ns.visibility, level, req.ctx)) throw new ForbiddenError();
    return { projectId: ns.id, fullPath: ns.fullPath, level };
  }

  async function findRepository(projectId: number, raw: unknown): Promise<RepositoryDoc> {
    const { repository_id } = parseParams(repositoryIdParams, { repository_id: raw });
    const repository = await models.repositories
      .findOne({ _id: repository_id, projectId })
      .lean<RepositoryDoc>();
    if (!repository) throw new NotFoundError();
    return repository;
  }

  router.get('/projects/:id/registry/repositories', async (req, res) => {
    const { projectId, fullPath, level } = projectRead(req);
    const params = parseParams(listRegistryRepositoriesQuery, collectParams(req));
    const page = readPageRequest(req.query);
    const { total, docs: repositories } = await findPage(
      models.repositories,
      { projectId },
      { _id: 1 },
      page,
    );
    setPaginationHeaders(req, res, page, total);
    const body = await presentRepositories(
      req.ctx,
      repositories,
      new Map([[projectId, fullPath]]),
      params,
      () => level >= ACCESS_LEVELS.maintainer,
    );
    sendJson(res, 200, body);
  });

  router.get('/groups/:id/registry/repositories', async (req, res) => {
    requireUser(req.ctx);
    const ns = requireNamespace(req.ctx, 'group');
    const groupLevel = accessLevelOf(req.ctx);
    if (!canReadImages(ns.visibility, groupLevel, req.ctx)) throw new ForbiddenError();
    const params = parseParams(listRegistryRepositoriesQuery, collectParams(req));
    const page = readPageRequest(req.query);
    await projectionCaughtUp(deps.revisions, req, res);
    const projects = await models.projects
      .find({ ancestorGroupIds: ns.id, destroyed: { $ne: true } })
      .lean<ProjectRefDoc[]>();
    const levels = new Map<number, number>();
    for (const project of projects) {
      const level =
        groupLevel >= ACCESS_LEVELS.reporter
          ? groupLevel
          : await projectAccessLevel(models, project, req.ctx);
      if (canReadImages(project.visibility, level, req.ctx)) levels.set(project._id, level);
    }
    const filter = { projectId: { $in: [...levels.keys()] } };
    const { total, docs: repositories } = await findPage(models.repositories, filter, { _id: 1 }, page);
    setPaginationHeaders(req, res, page, total);
    const paths = new Map(projects.map((p) => [p._id, p.fullPath]));
    const body = await presentRepositories(
      req.ctx,
      repositories,
      paths,
      params,
      (r) => (levels.get(r.projectId) ?? 0) >= ACCESS_LEVELS.maintainer,
    );
    sendJson(res, 200, body);
  });

  router.get('/registry/repositories/:id', async (req, res) => {
    requireUser(req.ctx);
    const params = parseParams(getRegistryRepositoryQuery, collectParams(req));
    const repository = await models.repositories.findOne({ _id: params.id }).lean<RepositoryDoc>();
    if (!repository) throw new NotFoundError();
    await projectionCaughtUp(deps.revisions, req, res);
    const project = await models.projects
      .findOne({ _id: repository.projectId, destroyed: { $ne: true } })
      .lean<ProjectRefDoc>();
    if (!project) throw new NotFoundError();
    const level = await projectAccessLevel(models, project, req.ctx);
    if (!canSee(project.visibility, level, req.ctx)) throw new NotFoundError();
    if (!canReadImages(project.visibility, level, req.ctx)) throw new ForbiddenError();
    const [body] = await presentRepositories(
      req.ctx,
      [repository],
      new Map([[project._id, project.fullPath]]),
      params,
      () => level >= ACCESS_LEVELS.maintainer,
    );
    sendJson(res, 200, body);
  });

  router.delete('/projects/:id/registry/repositories/:repository_id', async (req, res) => {
    requireUser(req.ctx);
    const { projectId } = projectRead(req);
    const repository = await findRepository(projectId, req.params.repository_id);
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.maintainer) throw new ForbiddenError();
    const event = createEvent(
      { producer: 'registry', correlationId: req.ctx.requestId },
      {
        type: COMMAND_TYPES.registry.deleteRepository,
        actor: actorOf(req.ctx),
        projectId,
        data: { repositoryId: repository._id },
      },
    );
    await models.repositories.updateOne(
      { _id: repository._id },
      pushEvents({ $set: { status: 'delete_scheduled' } }, [event]),
    );
    deps.outbox.kick();
    sendJson(res, 202, 202);
  });

  router.get('/projects/:id/registry/repositories/:repository_id/tags', async (req, res) => {
    const { projectId, fullPath } = projectRead(req);
    parseParams(listRegistryTagsQuery, collectParams(req));
    const repository = await findRepository(projectId, req.params.repository_id);
    const page = readPageRequest(req.query);
    // GitLab: offset pagination over the tag names sorted ascending.
    const names = await tagNames.names(repository);
    setPaginationHeaders(req, res, page, names.length);
    const path = repositoryPath(fullPath, repository.name);
    sendJson(
      res,
      200,
      names.slice(page.skip, page.skip + page.perPage).map((name) => presentTag(path, host, name)),
    );
  });

  router.get('/projects/:id/registry/repositories/:repository_id/tags/:tag_name', async (req, res) => {
    const { projectId, fullPath } = projectRead(req);
    const params = parseParams(tagParams, collectParams(req));
    const repository = await findRepository(projectId, params.repository_id);
    const tag = await models.tags.findOne({ _id: tagId(repository._id, params.tag_name) }).lean<TagDoc>();
    if (!tag) throw new NotFoundError('Tag');
    sendJson(res, 200, presentTagDetail(repositoryPath(fullPath, repository.name), host, tag));
  });

  router.delete('/projects/:id/registry/repositories/:repository_id/tags/:tag_name', async (req, res) => {
    requireUser(req.ctx);
    const { projectId } = projectRead(req);
    const params = parseParams(tagParams, collectParams(req));
    const repository = await findRepository(projectId, params.repository_id);
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.developer) throw new ForbiddenError();
    const tag = await models.tags.findOne({ _id: tagId(repository._id, params.tag_name) }).lean<TagDoc>();
    if (!tag) throw new NotFoundError('Tag');
    const outcome = await deleteTags(deps, repository, [tag.name]);
    if (outcome.failed > 0) throw new BadRequestError();
    sendJson(res, 200, 200);
  });

  router.delete('/projects/:id/registry/repositories/:repository_id/tags', async (req, res) => {
    requireUser(req.ctx);
    const { projectId } = projectRead(req);
    const raw = collectParams(req);
    const params = parseParams(bulkDeleteTagsParams, raw);
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
    const repository = await findRepository(projectId, params.repository_id);
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.maintainer) throw new ForbiddenError();

    const now = new Date();
    const event = createEvent(
      { producer: 'registry', correlationId: req.ctx.requestId },
      {
        type: COMMAND_TYPES.registry.cleanupTags,
        actor: actorOf(req.ctx),
        projectId,
        data: {
          repositoryId: repository._id,
          nameRegexDelete: (params.name_regex_delete ?? params.name_regex)!,
          nameRegexKeep: params.name_regex_keep ?? null,
          keepN: params.keep_n ?? null,
          olderThan: params.older_than ?? null,
        },
      },
    );
    // GitLab's exclusive lease: taken before the job runs, never released, expires after an hour.
    const taken = await models.repositories.updateOne(
      { _id: repository._id, $or: [{ cleanupLeaseUntil: null }, { cleanupLeaseUntil: { $lte: now } }] },
      pushEvents({ $set: { cleanupLeaseUntil: new Date(now.getTime() + BULK_DELETE_INTERVAL_MS) } }, [event]),
    );
    if (taken.modifiedCount !== 1) throw new HttpError(400, { message: CLEANUP_RATE_LIMITED });
    deps.outbox.kick();
    sendJson(res, 202, 202);
  });

  router.post('/container_registry_event/events', async (req, res) => {
    const secret = deps.config.REGISTRY_NOTIFICATION_SECRET;
    // An unset secret refuses everyone; any header, whatever its length or bytes, is a match or a 401.
    if (!secretsEqual(req.headers.authorization, secret)) throw new UnauthorizedError();
    const envelope = registryNotificationEnvelope.safeParse(req.body);
    if (envelope.success) {
      for (const raw of envelope.data.events) {
        const event = registryNotificationEvent.safeParse(raw);
        if (event.success) await applyNotification(deps, event.data);
      }
    }
    sendJson(res, 200, {});
  });

  return router;
}

function actorOf(ctx: InternalContext) {
  const p = ctx.principal;
  return p ? { id: p.id, username: p.username, name: p.name } : null;
}
