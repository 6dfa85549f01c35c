import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  IDENTITY_API,
  booleanParam,
  listGroupProjectsQuery,
  listProjectsQuery,
  wantsKeyset,
  type ListGroupsQuery,
} from '@gl/contracts';
import {
  eventActor,
  keysetUnavailable,
  sendJson,
  setKeysetPaginationHeaders,
  setPaginationHeaders,
} from '@gl/service-kit';
import { decodeGroupCursor, encodeGroupCursor } from './group-cursor';
import { OWNER, requireLevel } from './access';
import { transferGroup } from './group-transfer';
import { resolveGroup, type ResolvedNamespace } from '../namespaces/resolve';
import type { GroupsFinder } from './groups.finder';
import type { GroupsService, NamespaceDoc } from './groups.service';
import type { ProjectsService } from './projects.service';
import { groupDetailEntity, groupEntity } from './groups.entities';
import { callerOf, identityRoutes, originOfRequest, pageOf, paramsOf } from './http';
import type { IdentityRouterDeps } from './router-deps';
import { presentProjects } from './projects.presenter';

// Parameters the handlers read beyond their contracts' (which document fewer).
const getGroupQuery = z.object({ with_projects: booleanParam.optional() });
const groupProjectsQuery = listProjectsQuery.extend(listGroupProjectsQuery.shape);

/** /groups, /groups/:id and its projects and subgroups (lib/api/groups.rb). */
export function createGroupsRouter(
  deps: IdentityRouterDeps & { groups: GroupsService; groupsFinder: GroupsFinder; projects: ProjectsService },
): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { stores, externalUrl, groups, groupsFinder, projects } = deps;

  /** The group the path names (`pathParams()`: its id or full path), as the caller may see it. */
  const resolve = (req: Request, { id }: { id: string }): Promise<ResolvedNamespace> =>
    resolveGroup(stores, id, req.principal, externalUrl);

  /**
   * Answers a GroupsFinder list: /groups, a group's direct subgroups (`parentId`) or all groups below it
   * (`ancestorId`), one page of what the caller may see.
   */
  async function sendGroupPage(
    req: Request,
    res: Response,
    query: ListGroupsQuery,
    parentId?: number,
    ancestorId?: number,
  ): Promise<void> {
    const page = pageOf(req);
    if (!req.principal && wantsKeyset(query)) {
      await sendGroupsByName(req, res, query, page.perPage, parentId, ancestorId);
      return;
    }
    const { total, groups } = await groupsFinder.list(query, req.principal, page, parentId, ancestorId);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      groups.map((g) => groupEntity(externalUrl, g)),
    );
  }

  /**
   * Keyset pages of groups as GitLab serves them to anonymous callers (present_groups_with_pagination_strategies
   * in lib/api/groups.rb; signed-in callers get offset pages): cursor-based (Gitlab::Pagination::Keyset::
   * CursorPager), in the one order Group supports, name ascending (`supported_keyset_orderings`); any other
   * order_by or sort is 405 "Keyset pagination is not yet available for this type of request". One group
   * more than the page is read to know whether a next page exists; only then come Link rel="next" (the
   * request's parameters with `cursor`) and X-Next-Cursor. No X-Page, X-Total or other headers.
   */
  async function sendGroupsByName(
    req: Request,
    res: Response,
    query: ListGroupsQuery,
    perPage: number,
    parentId?: number,
    ancestorId?: number,
  ): Promise<void> {
    if ((query.order_by ?? 'name') !== 'name' || (query.sort ?? 'asc') !== 'asc') throw keysetUnavailable();
    const after = query.cursor ? decodeGroupCursor(query.cursor) : null;
    const found = await groupsFinder.listByName(query, null, after, perPage + 1, parentId, ancestorId);
    const page = found.slice(0, perPage);
    const last = page.at(-1);
    const next = found.length > perPage && last ? encodeGroupCursor({ name: last.name, id: last._id }) : null;
    setKeysetPaginationHeaders(req, res, next);
    sendJson(
      res,
      200,
      page.map((g) => groupEntity(externalUrl, g)),
    );
  }

  async function detail(req: Request, group: NamespaceDoc, withProjects = true) {
    const projects = withProjects
      ? await presentProjects(
          stores,
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

  serve(IDENTITY_API.listGroups, ({ req, res, params }) => sendGroupPage(req, res, params()));

  serve(IDENTITY_API.createGroup, async ({ req, res, params }) => {
    const group = await groups.create(params(), callerOf(req), originOfRequest(req));
    sendJson(res, 201, groupDetailEntity(externalUrl, group, []));
  });

  serve(IDENTITY_API.getGroup, async ({ req, res, pathParams }) => {
    const { with_projects } = paramsOf(req, getGroupQuery);
    const { group } = await resolve(req, pathParams());
    sendJson(res, 200, await detail(req, group!, with_projects ?? true));
  });

  serve(IDENTITY_API.listSubgroups, async ({ req, res, params, pathParams }) => {
    const query = params();
    const { group } = await resolve(req, pathParams());
    await sendGroupPage(req, res, query, group!._id);
  });

  serve(IDENTITY_API.listGroupProjects, async ({ req, res, pathParams }) => {
    const query = paramsOf(req, groupProjectsQuery);
    const { group } = await resolve(req, pathParams());
    const page = pageOf(req);
    const { total, projects: rows } = await projects.list(query, req.principal, page, {
      id: group!._id,
      includeSubgroups: query.include_subgroups ?? false,
    });
    setPaginationHeaders(req, res, page, total);
    // Entities::Project (no `permissions`), or BasicProjectDetails with `simple=true`.
    sendJson(
      res,
      200,
      await presentProjects(stores, externalUrl, rows, null, { basic: query.simple === true }),
    );
  });

  serve(IDENTITY_API.updateGroup, async ({ req, res, params, pathParams }) => {
    const changes = params();
    const { group, context } = await resolve(req, pathParams());
    const updated = await groups.update(
      group!,
      context.accessLevel,
      changes,
      callerOf(req),
      originOfRequest(req),
    );
    sendJson(res, 200, await detail(req, updated));
  });

  serve(IDENTITY_API.listDescendantGroups, async ({ req, res, params, pathParams }) => {
    const query = params();
    const { group } = await resolve(req, pathParams());
    await sendGroupPage(req, res, query, undefined, group!._id);
  });

  // find_group!(id), authorize! :admin_group, then find_group!(group_id) (404 Group Not Found).
  serve(IDENTITY_API.transferGroup, async ({ req, res, params, pathParams }) => {
    const { group_id } = params();
    const { group, context } = await resolve(req, pathParams());
    const principal = callerOf(req);
    requireLevel(principal, context.accessLevel, OWNER);
    const parent =
      group_id === undefined
        ? null
        : (await resolveGroup(stores, String(group_id), req.principal, externalUrl)).group!;
    const moved = await transferGroup(
      deps,
      group!,
      context.accessLevel,
      parent,
      principal,
      originOfRequest(req),
      eventActor(principal),
    );
    sendJson(res, 201, await detail(req, moved));
  });

  serve(IDENTITY_API.deleteGroup, async ({ req, res, pathParams }) => {
    const { group, context } = await resolve(req, pathParams());
    await groups.remove(group!, context.accessLevel, callerOf(req), originOfRequest(req));
    sendJson(res, 202, { message: '202 Accepted' });
  });

  return router;
}
