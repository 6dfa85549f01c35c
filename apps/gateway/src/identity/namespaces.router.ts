import { Router } from 'express';
import type { FilterQuery } from 'mongoose';
import { IDENTITY_API, type Principal } from '@gl/contracts';
import { sendJson, setPaginationHeaders } from '@gl/service-kit';
import { OWNER } from './access';
import { callerOf, identityRoutes, pageOf } from './http';
import type { NamespaceDoc } from './groups.service';
import { membershipsOf } from './memberships';
import { findReadableNamespace } from './namespace-access';
import { namespaceBasic } from './projects.entities';
import { searchPattern } from './queries';
import type { IdentityRouterDeps } from './router-deps';

/** GET /namespaces and /namespaces/:id (lib/api/namespaces.rb, `authenticate!` first). */
export function createNamespacesRouter(deps: IdentityRouterDeps): Router {
  const router = Router();
  const serve = identityRoutes(router, deps);
  const { stores, externalUrl } = deps;

  /**
   * Entities::Namespace: NamespaceBasic, plus members_count_with_descendants for those who may
   * admin_group, and projects_count and root_repository_size for administrators (groups only).
   */
  async function present(namespace: NamespaceDoc, principal: Principal, level: number) {
    const owner =
      namespace.kind === 'user' && namespace.ownerId ? await stores.users.findById(namespace.ownerId) : null;
    const entity: Record<string, unknown> = namespaceBasic(externalUrl, namespace, owner);
    if (namespace.kind !== 'group') return entity;
    if (principal.isAdmin || level >= OWNER) {
      const groupIds = [namespace._id, ...(await stores.namespaces.descendantIdsOf(namespace._id))];
      entity.members_count_with_descendants = await stores.members.distinctUsersIn(groupIds);
    }
    if (principal.isAdmin) {
      entity.root_repository_size = 0;
      entity.projects_count = await stores.projects.countUnderGroup(namespace._id);
    }
    return entity;
  }

  // User#namespaces: the personal namespace and the groups of direct memberships; all for admins.
  serve(IDENTITY_API.listNamespaces, async ({ req, res, params }) => {
    const principal = callerOf(req);
    const query = params();
    const memberships = await membershipsOf(stores.members, principal.id);
    const and: FilterQuery<NamespaceDoc>[] = [];
    if (!principal.isAdmin) {
      const groups = [...memberships.groups]
        .filter(([, level]) => (query.owned_only ? level >= OWNER : level > 0))
        .map(([id]) => id);
      const personal = await stores.users.namespaceIdOf(principal.id);
      and.push({ _id: { $in: personal === undefined ? groups : [personal, ...groups] } });
    }
    if (query.top_level_only) and.push({ parentId: null });
    if (query.search) {
      const pattern = searchPattern(query.search);
      and.push({ $or: [{ name: pattern }, { path: pattern }] });
    }
    const page = pageOf(req);
    const { total, docs } = await stores.namespaces.page(
      and.length > 0 ? { $and: and } : {},
      { _id: 1 },
      page,
    );
    setPaginationHeaders(req, res, page, total);
    const levels = (doc: NamespaceDoc): number =>
      Math.max(0, ...[...doc.ancestorIds, doc._id].map((id) => memberships.groups.get(id) ?? 0));
    sendJson(res, 200, await Promise.all(docs.map((doc) => present(doc, principal, levels(doc)))));
  });

  // can?(:read_namespace_via_membership): a personal namespace's owner, a member of the group or of one
  // above it, or an administrator; anyone else the same 404 as an unknown namespace.
  serve(IDENTITY_API.getNamespace, async ({ req, res, pathParams }) => {
    const principal = callerOf(req);
    const { namespace, level } = await findReadableNamespace(stores, pathParams().id, principal);
    sendJson(res, 200, await present(namespace, principal, level));
  });

  return router;
}
