import { Router, type Request } from 'express';
import {
  bulkDeleteTagsParams,
  getRegistryRepositoryQuery,
  listRegistryRepositoriesQuery,
  listRegistryTagsQuery,
  registryNotificationEnvelope,
  registryNotificationEvent,
  repositoryIdParams,
  tagParams,
} from '@gl/contracts';
import {
  UnauthorizedError,
  collectParams,
  parseParams,
  projectionCaughtUp,
  readPageRequest,
  requireUser,
  secretsEqual,
  sendJson,
  setPaginationHeaders,
  type ProjectionRevisions,
} from '@gl/service-kit';
import { groupRead, projectRead } from './access';
import type { RegistryConfig } from './config';
import { presentRepository, presentTag, presentTagDetail, type RepositoryView } from './registry.presenters';
import { applyNotification, repositoryPath } from './registry.service';
import {
  cleanupRulesOf,
  deleteTag,
  findRepository,
  findTag,
  pageOfProject,
  pageOfProjects,
  projectReaderOf,
  readableProjectsInGroup,
  repositoryById,
  repositoryViews,
  requestTagsCleanup,
  scheduleRepositoryDelete,
  tagNames,
  type RegistryApiDeps,
} from './repositories.service';

/** The 400 message of a second bulk delete within the hour. */
export { CLEANUP_RATE_LIMITED } from './repositories.service';

export interface RouterDeps extends RegistryApiDeps {
  config: Pick<RegistryConfig, 'REGISTRY_HOST' | 'REGISTRY_NOTIFICATION_SECRET'>;
  /**
   * The group list and GET /registry/repositories/:id decide from the identity projection (visibility and
   * memberships of projects the gateway did not resolve): they wait until it has applied the request's
   * identity revisions, so a removal or a visibility change counts on the next request (else 503).
   */
  revisions: Pick<ProjectionRevisions, 'caughtUp'>;
}

export function createRegistryRouter(deps: RouterDeps): Router {
  const host = deps.config.REGISTRY_HOST;
  const router = Router();

  const present = (req: Request, views: RepositoryView[]) =>
    views.map((view) => presentRepository(view, { host, externalUrl: req.ctx.externalUrl }));

  /** The project's repository named by a path parameter (404 unless it is this project's). */
  async function repositoryOf(projectId: number, raw: unknown) {
    const { repository_id } = parseParams(repositoryIdParams, { repository_id: raw });
    return findRepository(deps, projectId, repository_id);
  }

  router.get('/projects/:id/registry/repositories', async (req, res) => {
    const { projectId, fullPath, level } = projectRead(req.ctx);
    const params = parseParams(listRegistryRepositoriesQuery, collectParams(req));
    const page = readPageRequest(req.query);
    const { total, docs } = await pageOfProject(deps, projectId, page);
    setPaginationHeaders(req, res, page, total);
    const paths = new Map([[projectId, fullPath]]);
    const views = await repositoryViews(deps, docs, paths, params, () => level);
    sendJson(res, 200, present(req, views));
  });

  router.get('/groups/:id/registry/repositories', async (req, res) => {
    const { ns, level: groupLevel } = groupRead(req.ctx);
    const params = parseParams(listRegistryRepositoriesQuery, collectParams(req));
    const page = readPageRequest(req.query);
    await projectionCaughtUp(deps.revisions, req, res);
    const { projects, levels } = await readableProjectsInGroup(deps, ns, groupLevel, req.ctx);
    const { total, docs } = await pageOfProjects(deps, [...levels.keys()], page);
    setPaginationHeaders(req, res, page, total);
    const paths = new Map(projects.map((p) => [p._id, p.fullPath]));
    const views = await repositoryViews(deps, docs, paths, params, (r) => levels.get(r.projectId) ?? 0);
    sendJson(res, 200, present(req, views));
  });

  router.get('/registry/repositories/:id', async (req, res) => {
    requireUser(req.ctx);
    const params = parseParams(getRegistryRepositoryQuery, collectParams(req));
    const repository = await repositoryById(deps, params.id);
    await projectionCaughtUp(deps.revisions, req, res);
    const { project, level } = await projectReaderOf(deps, repository, req.ctx);
    const paths = new Map([[project._id, project.fullPath]]);
    const views = await repositoryViews(deps, [repository], paths, params, () => level);
    sendJson(res, 200, present(req, views)[0]);
  });

  router.delete('/projects/:id/registry/repositories/:repository_id', async (req, res) => {
    requireUser(req.ctx);
    const { projectId, level } = projectRead(req.ctx);
    const repository = await repositoryOf(projectId, req.params.repository_id);
    await scheduleRepositoryDelete(deps, req.ctx, projectId, repository, level);
    sendJson(res, 202, 202);
  });

  router.get('/projects/:id/registry/repositories/:repository_id/tags', async (req, res) => {
    const { projectId, fullPath } = projectRead(req.ctx);
    parseParams(listRegistryTagsQuery, collectParams(req));
    const repository = await repositoryOf(projectId, req.params.repository_id);
    const page = readPageRequest(req.query);
    // GitLab: offset pagination over the tag names sorted ascending.
    const names = await tagNames(deps, repository);
    setPaginationHeaders(req, res, page, names.length);
    const path = repositoryPath(fullPath, repository.name);
    sendJson(
      res,
      200,
      names.slice(page.skip, page.skip + page.perPage).map((name) => presentTag(path, host, name)),
    );
  });

  router.get('/projects/:id/registry/repositories/:repository_id/tags/:tag_name', async (req, res) => {
    const { projectId, fullPath } = projectRead(req.ctx);
    const params = parseParams(tagParams, collectParams(req));
    const repository = await repositoryOf(projectId, params.repository_id);
    const tag = await findTag(deps, repository, params.tag_name);
    sendJson(res, 200, presentTagDetail(repositoryPath(fullPath, repository.name), host, tag));
  });

  router.delete('/projects/:id/registry/repositories/:repository_id/tags/:tag_name', async (req, res) => {
    requireUser(req.ctx);
    const { projectId, level } = projectRead(req.ctx);
    const params = parseParams(tagParams, collectParams(req));
    const repository = await repositoryOf(projectId, params.repository_id);
    await deleteTag(deps, repository, params.tag_name, level);
    sendJson(res, 200, 200);
  });

  router.delete('/projects/:id/registry/repositories/:repository_id/tags', async (req, res) => {
    requireUser(req.ctx);
    const { projectId, level } = projectRead(req.ctx);
    const params = parseParams(bulkDeleteTagsParams, collectParams(req));
    const rules = cleanupRulesOf(params);
    const repository = await repositoryOf(projectId, params.repository_id);
    await requestTagsCleanup(deps, req.ctx, projectId, repository, level, rules);
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
