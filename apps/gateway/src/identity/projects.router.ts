import { Router, type Request } from 'express';
import {
  UPDATE_PROJECT_ATTRIBUTES,
  createProjectBody,
  listProjectsQuery,
  updateProjectBody,
} from '@gl/contracts';
import { atLeastOneOf, sendJson, setPaginationHeaders } from '@gl/service-kit';
import { resolveProject, type ResolvedNamespace } from '../namespaces/resolve';
import {
  callerOf,
  maybeSignedIn,
  originOfRequest,
  pageOf,
  paramsOf,
  paramsWithRules,
  signedIn,
  withBody,
} from './http';
import type { IdentityRouterDeps } from './router-deps';
import { presentProject, presentProjects } from './projects.presenter';
import type { ProjectsService } from './projects.service';

/** /projects and /projects/:id (lib/api/projects.rb). */
export function createProjectsRouter(deps: IdentityRouterDeps & { projects: ProjectsService }): Router {
  const router = Router();
  const { models, externalUrl, projects } = deps;

  const resolve = (req: Request): Promise<ResolvedNamespace> =>
    resolveProject(models, String(req.params.id), req.principal, externalUrl);

  router.get('/projects', maybeSignedIn(deps), async (req, res) => {
    const query = paramsOf(req, listProjectsQuery);
    const page = pageOf(req);
    const { total, projects: rows, memberships } = await projects.list(query, req.principal, page);
    setPaginationHeaders(req, res, page, total);
    // Anonymous callers and `simple=true` get BasicProjectDetails, signed-in callers ProjectWithAccess.
    const basic = query.simple === true || !req.principal;
    sendJson(
      res,
      200,
      await presentProjects(models, externalUrl, rows, req.principal, { basic, memberships }),
    );
  });

  router.post('/projects', signedIn(deps), withBody(), async (req, res) => {
    const params = paramsWithRules(req, createProjectBody, [atLeastOneOf('name', 'path')]);
    const project = await projects.create(params, callerOf(req), originOfRequest(req));
    // Entities::Project: no `permissions` block on create and update responses.
    sendJson(res, 201, await presentProject(models, externalUrl, project, null));
  });

  router.get('/projects/:id', maybeSignedIn(deps), async (req, res) => {
    const { project } = await resolve(req);
    sendJson(res, 200, await presentProject(models, externalUrl, project!, req.principal));
  });

  router.put('/projects/:id', signedIn(deps), withBody(), async (req, res) => {
    const params = paramsWithRules(req, updateProjectBody, [atLeastOneOf(...UPDATE_PROJECT_ATTRIBUTES)]);
    const { project, context } = await resolve(req);
    const updated = await projects.update(
      project!,
      context.accessLevel,
      params,
      callerOf(req),
      originOfRequest(req),
    );
    sendJson(res, 200, await presentProject(models, externalUrl, updated, null));
  });

  // Removal is asynchronous in GitLab: 202 with a JSON body (gitbeaker rejects an empty 202).
  router.delete('/projects/:id', signedIn(deps), withBody(), async (req, res) => {
    const { project, context } = await resolve(req);
    await projects.remove(project!, context.accessLevel, callerOf(req), originOfRequest(req));
    sendJson(res, 202, { message: '202 Accepted' });
  });

  return router;
}
