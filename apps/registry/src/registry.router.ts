import { Router } from 'express';
import { REGISTRY_API, wantsKeyset, type InternalContext } from '@gl/contracts';
import {
  UnauthorizedError,
  projectionCaughtUp,
  readPageRequest,
  requireUser,
  route,
  secretsEqual,
  sendJson,
  setNextPageLink,
  setPaginationHeaders,
  type ProjectionRevisions,
  type ServiceMetrics,
} from '@gl/service-kit';
import { groupRead, projectRead } from './access';
import type { RegistryConfig } from './config';
import { droppedNotificationsCounter, reportDropped, screenNotifications } from './notifications';
import { presentRepository, presentTag, presentTagDetail, type RepositoryView } from './registry.presenters';
import { applyNotification, repositoryPath } from './registry.service';
import {
  cleanupRulesOf,
  deleteTag,
  findRepository,
  findTag,
  pageOfProject,
  pageOfProjects,
  previewTagsCleanup,
  projectReaderOf,
  readableProjectsInGroup,
  repositoryById,
  repositoryViews,
  requestTagsCleanup,
  scheduleRepositoryDelete,
  tagNames,
  tagNamesAfter,
  type RegistryApiDeps,
} from './repositories.service';

/** The 400 message of a second bulk delete within the hour. */
export { CLEANUP_RATE_LIMITED } from './repositories.service';

export interface RouterDeps extends RegistryApiDeps {
  config: Pick<
    RegistryConfig,
    'REGISTRY_HOST' | 'REGISTRY_NOTIFICATION_SECRET' | 'REGISTRY_CLEANUP_MAX_TAGS'
  >;
  /**
   * The group list and GET /registry/repositories/:id decide from the identity projection (visibility and
   * memberships of projects the gateway did not resolve): they wait until it has applied the request's
   * identity revisions, so a removal or a visibility change counts on the next request (else 503).
   */
  revisions: Pick<ProjectionRevisions, 'caughtUp'>;
  /** Where dropped registry notifications are counted. */
  metrics: ServiceMetrics;
}

export function createRegistryRouter(deps: RouterDeps): Router {
  const host = deps.config.REGISTRY_HOST;
  const dropped = droppedNotificationsCounter(deps.metrics);
  const router = Router();

  const present = (ctx: InternalContext, views: RepositoryView[]) =>
    views.map((view) => presentRepository(view, { host, externalUrl: ctx.externalUrl }));

  route(router, REGISTRY_API.listProjectRegistryRepositories, async ({ req, res, ctx, params }) => {
    const { projectId, fullPath, level } = projectRead(ctx);
    const options = params();
    const page = readPageRequest(req.query);
    const { total, docs } = await pageOfProject(deps, projectId, page);
    setPaginationHeaders(req, res, page, total);
    const paths = new Map([[projectId, fullPath]]);
    const views = await repositoryViews(deps, docs, paths, options, () => level);
    sendJson(res, 200, present(ctx, views));
  });

  route(router, REGISTRY_API.listGroupRegistryRepositories, async ({ req, res, ctx, params }) => {
    const { ns, level: groupLevel } = groupRead(ctx);
    const options = params();
    const page = readPageRequest(req.query);
    await projectionCaughtUp(deps.revisions, req, res);
    const { projects, levels } = await readableProjectsInGroup(deps, ns, groupLevel, ctx);
    const { total, docs } = await pageOfProjects(deps, [...levels.keys()], page);
    setPaginationHeaders(req, res, page, total);
    const paths = new Map(projects.map((p) => [p._id, p.fullPath]));
    const views = await repositoryViews(deps, docs, paths, options, (r) => levels.get(r.projectId) ?? 0);
    sendJson(res, 200, present(ctx, views));
  });

  route(router, REGISTRY_API.getRegistryRepository, async ({ req, res, ctx, params }) => {
    requireUser(ctx);
    const options = params();
    const repository = await repositoryById(deps, options.id);
    await projectionCaughtUp(deps.revisions, req, res);
    const { project, level } = await projectReaderOf(deps, repository, ctx);
    const paths = new Map([[project._id, project.fullPath]]);
    const views = await repositoryViews(deps, [repository], paths, options, () => level);
    sendJson(res, 200, present(ctx, views)[0]);
  });

  route(router, REGISTRY_API.deleteRegistryRepository, async ({ res, ctx, params }) => {
    requireUser(ctx);
    const { projectId, level } = projectRead(ctx);
    const repository = await findRepository(deps, projectId, params().repository_id);
    await scheduleRepositoryDelete(deps, ctx, projectId, repository, level);
    sendJson(res, 202, 202);
  });

  route(router, REGISTRY_API.listRegistryRepositoryTags, async ({ req, res, ctx, params }) => {
    const { projectId, fullPath } = projectRead(ctx);
    const query = params();
    const repository = await findRepository(deps, projectId, query.repository_id);
    const page = readPageRequest(req.query);
    if (wantsKeyset(query)) {
      // GitLab with the registry's metadata database (lib/api/project_container_repositories.rb): a page by
      // name after `last`, descending with sort=desc; the next page's Link only when more tags follow
      // (add_next_link_if_next_page_exists), with `last`, `per_page` and `sort`; no totals.
      const descending = query.sort === 'desc';
      const found = await tagNamesAfter(deps, repository, query.last, descending, page.perPage + 1);
      const names = found.slice(0, page.perPage);
      if (found.length > page.perPage) {
        const next = {
          last: names.at(-1)!,
          per_page: String(page.perPage),
          sort: descending ? 'desc' : 'asc',
        };
        setNextPageLink(req, res, next);
      }
      const path = repositoryPath(fullPath, repository.name);
      sendJson(
        res,
        200,
        names.map((name) => presentTag(path, host, name)),
      );
      return;
    }
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

  route(router, REGISTRY_API.getRegistryRepositoryTag, async ({ res, ctx, params }) => {
    const { projectId, fullPath } = projectRead(ctx);
    const { repository_id, tag_name } = params();
    const repository = await findRepository(deps, projectId, repository_id);
    const tag = await findTag(deps, repository, tag_name);
    sendJson(res, 200, presentTagDetail(repositoryPath(fullPath, repository.name), host, tag));
  });

  route(router, REGISTRY_API.deleteRegistryRepositoryTag, async ({ res, ctx, params }) => {
    requireUser(ctx);
    const { projectId, level } = projectRead(ctx);
    const { repository_id, tag_name } = params();
    const repository = await findRepository(deps, projectId, repository_id);
    await deleteTag(deps, repository, tag_name, level);
    sendJson(res, 200, 200);
  });

  route(router, REGISTRY_API.bulkDeleteRegistryRepositoryTags, async ({ res, ctx, params }) => {
    requireUser(ctx);
    const { projectId, level } = projectRead(ctx);
    const request = params();
    const rules = cleanupRulesOf(request);
    const repository = await findRepository(deps, projectId, request.repository_id);
    if (request.dry_run) {
      const maxPerRun = deps.config.REGISTRY_CLEANUP_MAX_TAGS;
      sendJson(res, 200, await previewTagsCleanup(deps, repository, level, rules, maxPerRun));
      return;
    }
    await requestTagsCleanup(deps, ctx, projectId, repository, level, rules);
    sendJson(res, 202, 202);
  });

  route(router, REGISTRY_API.receiveRegistryEvents, async ({ req, res }) => {
    const secret = deps.config.REGISTRY_NOTIFICATION_SECRET;
    // An unset secret refuses everyone; any header, whatever its length or bytes, is a match or a 401.
    if (!secretsEqual(req.headers.authorization, secret)) throw new UnauthorizedError();
    // Malformed events are dropped, counted and logged, never stored: still 200 (notifications.ts says why).
    const screened = screenNotifications(req.body);
    reportDropped(deps.logger, dropped, screened.dropped);
    for (const event of screened.events) await applyNotification(deps, event);
    sendJson(res, 200, {});
  });

  return router;
}
