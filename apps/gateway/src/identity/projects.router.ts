import { Router, type Request } from 'express';
import { IDENTITY_API, UPDATE_PROJECT_ATTRIBUTES, createProjectBody, updateProjectBody } from '@gl/contracts';
import { atLeastOneOf, eventActor, sendJson, setPaginationHeaders } from '@gl/service-kit';
import { findReadableNamespace } from './namespace-access';
import { projectGroups } from './project-groups';
import { requireChangeNamespace, transferProject } from './project-transfer';
import { groupWebUrl } from './urls';
import { resolveProject, type ResolvedNamespace } from '../namespaces/resolve';
import { callerOf, identityRoutes, originOfRequest, pageOf, paramsWithRules } from './http';
import type { IdentityRouterDeps } from './router-deps';
import { presentProject, sendProjectPage } from './projects.presenter';
import type { ProjectsService } from './projects.service';

/** /projects and /projects/:id (lib/api/projects.rb). */
export function createProjectsRouter(deps: IdentityRouterDeps & { projects: ProjectsService }): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { stores, externalUrl, projects } = deps;

  /** The project the path names (`pathParams()`: its id or full path), as the caller may see it. */
  const resolve = (req: Request, { id }: { id: string }): Promise<ResolvedNamespace> =>
    resolveProject(stores, id, req.principal, externalUrl);

  serve(IDENTITY_API.listProjects, ({ req, res, params }) => sendProjectPage(deps, req, res, params()));

  // Grape's `at_least_one_of` too, so these handlers validate with their own rules, not params().
  serve(IDENTITY_API.createProject, async ({ req, res }) => {
    const params = paramsWithRules(req, createProjectBody, [atLeastOneOf('name', 'path')]);
    const project = await projects.create(params, callerOf(req), originOfRequest(req));
    // Entities::Project: no `permissions` block on create and update responses.
    sendJson(res, 201, await presentProject(stores, externalUrl, project, null));
  });

  serve(IDENTITY_API.getProject, async ({ req, res, pathParams }) => {
    const { project } = await resolve(req, pathParams());
    sendJson(res, 200, await presentProject(stores, externalUrl, project!, req.principal));
  });

  serve(IDENTITY_API.updateProject, async ({ req, res, pathParams }) => {
    const params = paramsWithRules(req, updateProjectBody, [atLeastOneOf(...UPDATE_PROJECT_ATTRIBUTES)]);
    const { project, context } = await resolve(req, pathParams());
    const updated = await projects.update(
      project!,
      context.accessLevel,
      params,
      callerOf(req),
      originOfRequest(req),
    );
    sendJson(res, 200, await presentProject(stores, externalUrl, updated, null));
  });

  // Projects::GroupsFinder: the project's group and the groups above it that the caller sees, newest first.
  serve(IDENTITY_API.listProjectGroups, async ({ req, res, params, pathParams }) => {
    const query = params();
    const { project } = await resolve(req, pathParams());
    const page = pageOf(req);
    const { total, groups } = await projectGroups(stores, project!, req.principal, query, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      groups.map((group) => ({
        id: group._id,
        web_url: groupWebUrl(externalUrl, group),
        name: group.name,
        avatar_url: null,
        full_name: group.fullName,
        full_path: group.fullPath,
      })),
    );
  });

  // authorize! :change_namespace comes before the namespace is looked up.
  serve(IDENTITY_API.transferProject, async ({ req, res, params, pathParams }) => {
    const { namespace: target } = params();
    const { project, context } = await resolve(req, pathParams());
    const principal = callerOf(req);
    requireChangeNamespace(principal, context.accessLevel);
    const { namespace } = await findReadableNamespace(stores, target, principal);
    const moved = await transferProject(
      deps,
      project!,
      namespace,
      principal,
      originOfRequest(req),
      eventActor(principal),
    );
    sendJson(res, 200, await presentProject(stores, externalUrl, moved, principal));
  });

  // Removal is asynchronous in GitLab: 202 with a JSON body (gitbeaker rejects an empty 202).
  serve(IDENTITY_API.deleteProject, async ({ req, res, pathParams }) => {
    const { project, context } = await resolve(req, pathParams());
    await projects.remove(project!, context.accessLevel, callerOf(req), originOfRequest(req));
    sendJson(res, 202, { message: '202 Accepted' });
  });

  return router;
}
