import { Router } from 'express';
import { IDENTITY_API } from '@gl/contracts';
import { eventActor, NotFoundError, sendJson, sendNoContent, setPaginationHeaders } from '@gl/service-kit';
import { requireAdmin } from './access';
import { callerOf, identityRoutes, numericParam, originOfRequest, pageOf } from './http';
import { sendProjectPage } from './projects.presenter';
import type { ProjectsService } from './projects.service';
import type { IdentityRouterDeps } from './router-deps';
import type { UserAdminService, UserDoc } from './user-admin.service';
import { userWithAdminEntity } from './users.entities';

export interface UserAdminRouterDeps extends IdentityRouterDeps {
  userAdmin: UserAdminService;
  projects: ProjectsService;
}

/**
 * PUT and DELETE /users/:id, GET /users/:user_id/memberships (lib/api/users.rb, admins only) and
 * GET /users/:user_id/projects (lib/api/projects.rb, anyone: the projects the caller may see).
 */
export function createUserAdminRouter(deps: UserAdminRouterDeps): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { stores, externalUrl, userAdmin } = deps;
  router.param('id', numericParam);

  async function userOr404(id: number): Promise<UserDoc> {
    const user = await stores.users.findById(id);
    if (!user) throw new NotFoundError('User');
    return user;
  }

  /** API::Helpers#find_user: an id, or a username (any case). */
  async function findUser(idOrUsername: string): Promise<UserDoc | null> {
    if (/^\d+$/.test(idOrUsername)) return stores.users.findById(Number(idOrUsername));
    return stores.users.findByUsername(idOrUsername);
  }

  serve(IDENTITY_API.updateUser, async ({ req, res, params }) => {
    const principal = callerOf(req);
    requireAdmin(principal);
    const input = params();
    const user = await userOr404(input.id);
    const updated = await userAdmin.update(user, input, originOfRequest(req), eventActor(principal));
    sendJson(res, 200, userWithAdminEntity(externalUrl, updated));
  });

  serve(IDENTITY_API.deleteUser, async ({ req, res, params }) => {
    const principal = callerOf(req);
    requireAdmin(principal);
    const { id, hard_delete } = params();
    const user = await userOr404(id);
    await userAdmin.remove(user, hard_delete ?? false, originOfRequest(req), eventActor(principal));
    sendNoContent(res);
  });

  serve(IDENTITY_API.listUserProjects, async ({ req, res, params }) => {
    const query = params();
    const user = await findUser(query.user_id);
    if (!user) throw new NotFoundError('User');
    await sendProjectPage(deps, req, res, query, { namespaceId: user.namespaceId });
  });

  // `authenticated_as_admin!` comes before the parameters are validated.
  serve(IDENTITY_API.listUserMemberships, async ({ req, res, params }) => {
    requireAdmin(callerOf(req));
    const query = params();
    const user = await userOr404(query.user_id);
    const page = pageOf(req);
    const sourceType = query.type === undefined ? undefined : query.type === 'Project' ? 'project' : 'group';
    const { total, docs } = await stores.members.pageOfUser(user._id, sourceType, page);
    const names = await sourceNames(docs);
    setPaginationHeaders(req, res, page, total);
    sendJson(
      res,
      200,
      docs.map((m) => ({
        source_id: m.sourceId,
        source_name: names.get(`${m.sourceType}:${m.sourceId}`) ?? '',
        source_type: m.sourceType === 'project' ? 'Project' : 'Namespace',
        access_level: m.accessLevel,
      })),
    );
  });

  /** Entities::Membership#source_name: the group's or project's name. */
  async function sourceNames(
    rows: { sourceType: 'group' | 'project'; sourceId: number }[],
  ): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const groupIds = rows.filter((r) => r.sourceType === 'group').map((r) => r.sourceId);
    for (const group of await stores.namespaces.byIds(groupIds)) names.set(`group:${group._id}`, group.name);
    for (const row of rows.filter((r) => r.sourceType === 'project')) {
      const project = await stores.projects.findByIdOrPath(String(row.sourceId));
      if (project) names.set(`project:${project._id}`, project.name);
    }
    return names;
  }

  return router;
}
