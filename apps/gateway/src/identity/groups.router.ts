import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  booleanParam,
  createGroupBody,
  listGroupProjectsQuery,
  listGroupsQuery,
  listProjectsQuery,
  updateGroupBody,
} from '@gl/contracts';
import { sendJson, setPaginationHeaders } from '@gl/service-kit';
import { resolveGroup, type ResolvedNamespace } from '../namespaces/resolve';
import type { GroupsFinder } from './groups.finder';
import type { GroupsService } from './groups.service';
import type { ProjectsService } from './projects.service';
import { groupDetailEntity, groupEntity } from './groups.entities';
import { callerOf, maybeSignedIn, originOfRequest, pageOf, paramsOf, signedIn, withBody } from './http';
import type { IdentityRouterDeps } from './router-deps';
import type { NamespaceDoc } from './identity.models';
import { presentProjects } from './projects.presenter';

const getGroupQuery = z.object({ with_projects: booleanParam.optional() });
const groupProjectsQuery = listProjectsQuery.extend(listGroupProjectsQuery.shape);

/** /groups, /groups/:id and its projects and subgroups (lib/api/groups.rb). */
export function createGroupsRouter(
  deps: IdentityRouterDeps & { groups: GroupsService; groupsFinder: GroupsFinder; projects: ProjectsService },
): Router {
  const router = Router();
  const { models, externalUrl, groups, groupsFinder, projects } = deps;

  const resolve = (req: Request): Promise<ResolvedNamespace> =>
    resolveGroup(models, String(req.params.id), req.principal, externalUrl);

  async function detail(req: Request, group: NamespaceDoc, withProjects = true) {
    const projects = withProjects
      ? await presentProjects(
          models,
          externalUrl,
          await groupsFinder.directProjects(group, req.principal),
          req.principal,
        )
      : [];
    const entity = groupDetailEntity(externalUrl, group, projects);
    if (withProjects) return entity;
    const { projects: _omitted, ...rest } = entity;
    return rest;
  }

  router.get('/groups', maybeSignedIn(deps), async (req, res) => {
    const query = paramsOf(req, listGroupsQuery);
    const page = pageOf(req);
    const { total, groups: rows } = await groupsFinder.list(query, req.principal, page);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      rows.map((g) => groupEntity(externalUrl, g)),
    );
  });

  router.post('/groups', signedIn(deps), withBody(), async (req, res) => {
    const params = paramsOf(req, createGroupBody);
    const group = await groups.create(params, callerOf(req), originOfRequest(req));
    sendJson(res, 201, groupDetailEntity(externalUrl, group, []));
  });

  router.get('/groups/:id', maybeSignedIn(deps), async (req, res) => {
    const { with_projects } = paramsOf(req, getGroupQuery);
    const { group } = await resolve(req);
    sendJson(res, 200, await detail(req, group!, with_projects ?? true));
  });

  router.get('/groups/:id/subgroups', maybeSignedIn(deps), async (req, res) => {
    const query = paramsOf(req, listGroupsQuery);
    const { group } = await resolve(req);
    const page = pageOf(req);
    const { total, groups: rows } = await groupsFinder.list(query, req.principal, page, {
      parentId: group!._id,
    });
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      rows.map((g) => groupEntity(externalUrl, g)),
    );
  });

  router.get('/groups/:id/projects', maybeSignedIn(deps), async (req, res) => {
    const query = paramsOf(req, groupProjectsQuery);
    const { group } = await resolve(req);
    const page = pageOf(req);
    const scope = query.include_subgroups ? { ancestorGroupIds: group!._id } : { namespaceId: group!._id };
    const { total, projects: rows } = await projects.list(query, req.principal, page, scope);
    setPaginationHeaders(req, res, page, total);
    // Entities::Project (no `permissions`), or BasicProjectDetails with `simple=true`.
    sendJson(
      res,
      200,
      await presentProjects(models, externalUrl, rows, null, { basic: query.simple === true }),
    );
  });

  router.put('/groups/:id', signedIn(deps), withBody(), async (req, res) => {
    const params = paramsOf(req, updateGroupBody);
    const { group, context } = await resolve(req);
    const updated = await groups.update(
      group!,
      context.accessLevel,
      params,
      callerOf(req),
      originOfRequest(req),
    );
    sendJson(res, 200, await detail(req, updated));
  });

  router.delete('/groups/:id', signedIn(deps), withBody(), async (req, res) => {
    const { group, context } = await resolve(req);
    await groups.remove(group!, context.accessLevel, callerOf(req), originOfRequest(req));
    sendJson(res, 202, { message: '202 Accepted' });
  });

  return router;
}
