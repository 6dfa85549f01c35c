import { Router, type Request, type RequestHandler } from 'express';
import {
  addMemberBody,
  listMembersQuery,
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
} from '@gl/service-kit';
import { resolveGroup, resolveProject } from '../namespaces/resolve';
import { callerOf, originOfRequest, pageOf, paramsOf, paramsWithRules, signedIn, withBody } from './http';
import type { IdentityRouterDeps } from './router-deps';
import { memberEntity } from './members.entities';
import type { MemberRow, MemberSource, MembersService } from './members.service';

const SOURCES = [
  { plural: 'groups', type: 'group' },
  { plural: 'projects', type: 'project' },
] as const;

/** /groups/:id/members and /projects/:id/members (lib/api/members.rb); every route needs a user. */
export function createMembersRouter(deps: IdentityRouterDeps & { members: MembersService }): Router {
  const router = Router();
  const { models, externalUrl, members } = deps;
  const present = (row: MemberRow) => memberEntity(externalUrl, row.member, row.user, row.createdBy);

  async function sourceOf(req: Request, type: MemberSource['type']): Promise<MemberSource> {
    const id = String(req.params.id);
    if (type === 'group') {
      const { context } = await resolveGroup(models, id, req.principal, externalUrl);
      return {
        type,
        id: context.id,
        ancestorGroupIds: context.ancestorGroupIds,
        accessLevel: context.accessLevel,
        personalOwnerId: null,
      };
    }
    const { project, context } = await resolveProject(models, id, req.principal, externalUrl);
    const personalOwnerId =
      project!.namespaceKind === 'user'
        ? ((await models.namespaces.findById(project!.namespaceId).select({ ownerId: 1 }).lean())?.ownerId ??
          null)
        : null;
    return {
      type,
      id: context.id,
      ancestorGroupIds: context.ancestorGroupIds,
      accessLevel: context.accessLevel,
      personalOwnerId,
    };
  }

  for (const { plural, type } of SOURCES) {
    const base = `/${plural}/:id/members`;

    /** GET members: the direct ones, or with `/all` also those inherited from the groups above. */
    const listed =
      (list: MembersService['listDirect']): RequestHandler =>
      async (req, res) => {
        const query = paramsOf(req, listMembersQuery);
        const source = await sourceOf(req, type);
        const page = pageOf(req);
        const { total, rows } = await list(source, query, page);
        setPaginationHeaders(req, res, page, total);
        sendJson(res, 200, rows.map(present));
      };

    router.get(base, signedIn(deps), listed(members.listDirect));
    router.get(`${base}/all`, signedIn(deps), listed(members.listAll));

    router.get(`${base}/all/:user_id`, signedIn(deps), async (req, res) => {
      const { user_id } = paramsOf(req, memberUserParam);
      const source = await sourceOf(req, type);
      sendJson(res, 200, present(await members.getEffective(source, user_id)));
    });

    router.get(`${base}/:user_id`, signedIn(deps), async (req, res) => {
      const { user_id } = paramsOf(req, memberUserParam);
      const source = await sourceOf(req, type);
      sendJson(res, 200, present(await members.getDirect(source, user_id)));
    });

    router.post(base, signedIn(deps), withBody(), async (req, res) => {
      const params = paramsWithRules(req, addMemberBody, [
        mutuallyExclusive('user_id', 'username'),
        atLeastOneOf('user_id', 'username'),
      ]);
      const source = await sourceOf(req, type);
      sendJson(res, 201, present(await members.add(source, params, callerOf(req), originOfRequest(req))));
    });

    router.put(`${base}/:user_id`, signedIn(deps), withBody(), async (req, res) => {
      const params = paramsOf(req, updateMemberBody);
      const source = await sourceOf(req, type);
      sendJson(res, 200, present(await members.update(source, params, callerOf(req), originOfRequest(req))));
    });

    router.delete(`${base}/:user_id`, signedIn(deps), withBody(), async (req, res) => {
      const params = paramsOf(req, removeMemberQuery);
      const source = await sourceOf(req, type);
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
