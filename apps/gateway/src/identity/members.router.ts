import { Router, type Request } from 'express';
import {
  IDENTITY_API,
  addMemberBody,
  memberUserParam,
  removeMemberQuery,
  updateMemberBody,
} from '@gl/contracts';
import {
  atLeastOneOf,
  mutuallyExclusive,
  sendJson,
  sendNoContent,
  setPaginationHeaders,
  type RouteHandler,
} from '@gl/service-kit';
import { resolveGroup, resolveProject } from '../namespaces/resolve';
import { callerOf, identityRoutes, originOfRequest, pageOf, paramsOf, paramsWithRules } from './http';
import type { IdentityRouterDeps } from './router-deps';
import { memberEntity } from './members.entities';
import type { MemberRow, MemberSource, MembersService } from './members.service';

const SOURCES = [
  {
    type: 'group',
    api: {
      list: IDENTITY_API.listGroupMembers,
      listAll: IDENTITY_API.listAllGroupMembers,
      getAll: IDENTITY_API.getAllGroupMember,
      get: IDENTITY_API.getGroupMember,
      add: IDENTITY_API.addGroupMember,
      update: IDENTITY_API.updateGroupMember,
      remove: IDENTITY_API.removeGroupMember,
    },
  },
  {
    type: 'project',
    api: {
      list: IDENTITY_API.listProjectMembers,
      listAll: IDENTITY_API.listAllProjectMembers,
      getAll: IDENTITY_API.getAllProjectMember,
      get: IDENTITY_API.getProjectMember,
      add: IDENTITY_API.addProjectMember,
      update: IDENTITY_API.updateProjectMember,
      remove: IDENTITY_API.removeProjectMember,
    },
  },
] as const;

type ListEndpoint = (typeof SOURCES)[number]['api']['list' | 'listAll'];

/** /groups/:id/members and /projects/:id/members (lib/api/members.rb); every route needs a user. */
export function createMembersRouter(deps: IdentityRouterDeps & { members: MembersService }): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { stores, externalUrl, members } = deps;
  const present = (row: MemberRow) => memberEntity(externalUrl, row.member, row.user, row.createdBy);

  /** The group or project the path names (`pathParams()`: its id or full path), as the caller may see it. */
  async function sourceOf(
    req: Request,
    { id }: { id: string },
    type: MemberSource['type'],
  ): Promise<MemberSource> {
    if (type === 'group') {
      const { context } = await resolveGroup(stores, id, req.principal, externalUrl);
      return {
        type,
        id: context.id,
        ancestorGroupIds: context.ancestorGroupIds,
        accessLevel: context.accessLevel,
        personalOwnerId: null,
      };
    }
    const { project, context } = await resolveProject(stores, id, req.principal, externalUrl);
    const personalOwnerId =
      project!.namespaceKind === 'user' ? await stores.namespaces.ownerIdOf(project!.namespaceId) : null;
    return {
      type,
      id: context.id,
      ancestorGroupIds: context.ancestorGroupIds,
      accessLevel: context.accessLevel,
      personalOwnerId,
    };
  }

  for (const { type, api } of SOURCES) {
    /** GET members: the direct ones, or with `/all` also those inherited from the groups above. */
    const listed =
      (list: MembersService['listDirect']): RouteHandler<ListEndpoint> =>
      async ({ req, res, params, pathParams }) => {
        const query = params();
        const source = await sourceOf(req, pathParams(), type);
        const page = pageOf(req);
        const { total, rows } = await list(source, query, page);
        setPaginationHeaders(req, res, page, total);
        sendJson(res, 200, rows.map(present));
      };

    serve(api.list, listed(members.listDirect));
    serve(api.listAll, listed(members.listAll));

    serve(api.getAll, async ({ req, res, params, pathParams }) => {
      const { user_id } = params();
      const source = await sourceOf(req, pathParams(), type);
      sendJson(res, 200, present(await members.getEffective(source, user_id)));
    });

    // These parse with their own schemas: the contracts' leave out the path's user_id (and DELETE's
    // skip_subresources), and POST also needs Grape's exclusive `user_id`/`username`.
    serve(api.get, async ({ req, res, pathParams }) => {
      const { user_id } = paramsOf(req, memberUserParam);
      const source = await sourceOf(req, pathParams(), type);
      sendJson(res, 200, present(await members.getDirect(source, user_id)));
    });

    serve(api.add, async ({ req, res, pathParams }) => {
      const params = paramsWithRules(req, addMemberBody, [
        mutuallyExclusive('user_id', 'username'),
        atLeastOneOf('user_id', 'username'),
      ]);
      const source = await sourceOf(req, pathParams(), type);
      sendJson(res, 201, present(await members.add(source, params, callerOf(req), originOfRequest(req))));
    });

    serve(api.update, async ({ req, res, pathParams }) => {
      const params = paramsOf(req, updateMemberBody);
      const source = await sourceOf(req, pathParams(), type);
      sendJson(res, 200, present(await members.update(source, params, callerOf(req), originOfRequest(req))));
    });

    serve(api.remove, async ({ req, res, pathParams }) => {
      const params = paramsOf(req, removeMemberQuery);
      const source = await sourceOf(req, pathParams(), type);
      await members.remove(
        source,
        params.user_id,
        params.skip_subresources ?? false,
        callerOf(req),
        originOfRequest(req),
      );
      sendNoContent(res);
    });
  }

  return router;
}
