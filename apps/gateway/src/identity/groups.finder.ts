import type { FilterQuery } from 'mongoose';
import type { ListGroupsQuery, Principal } from '@gl/contracts';
import type { PageRequest } from '@gl/service-kit';
import { OWNER } from './access';
import type { GroupCursor } from './group-cursor';
import type { IdentityDeps } from './identity.deps';
import type { NamespaceDoc, ProjectDoc } from './identity.models';
import { authorizedGroupsFilter, membershipsOf, visibleProjectsFilter } from './memberships';
import { searchPattern } from './queries';

const GROUP_PROJECTS_LIMIT = 100;

/** Reading groups: GitLab's GroupsFinder for lists, and the projects a group's detail shows. */
export function createGroupsFinder(deps: Pick<IdentityDeps, 'stores'>) {
  const { stores } = deps;

  /** GitLab's GroupsFinder: public for anonymous callers; for users their groups, plus all visible with all_available. */
  async function listFilter(
    query: ListGroupsQuery,
    principal: Principal | null,
    /** Narrows the list to the direct subgroups of this group. */
    parentId?: number,
    /** Narrows the list to every group below this one (descendant_groups). */
    ancestorId?: number,
  ): Promise<FilterQuery<NamespaceDoc>> {
    const and: FilterQuery<NamespaceDoc>[] = [{ kind: 'group' }, parentId === undefined ? {} : { parentId }];
    if (ancestorId !== undefined) and.push({ ancestorIds: ancestorId });
    if (query.skip_groups && query.skip_groups.length > 0) and.push({ _id: { $nin: query.skip_groups } });
    if (!principal) {
      and.push({ visibility: 'public' });
    } else {
      const memberships = await membershipsOf(stores.members, principal.id);
      if (query.owned || query.min_access_level !== undefined) {
        const min = query.owned ? OWNER : query.min_access_level!;
        const ids = [...memberships.groups].filter(([, level]) => level >= min).map(([id]) => id);
        // `owned` means direct Owner membership; a minimum level also reaches the subgroups it is inherited by.
        and.push(
          query.owned
            ? { _id: { $in: ids } }
            : { $or: [{ _id: { $in: ids } }, { ancestorIds: { $in: ids } }] },
        );
      } else {
        const allAvailable = query.all_available ?? principal.isAdmin;
        if (!(principal.isAdmin && allAvailable)) {
          const authorized = await authorizedGroupsFilter(stores.projects, memberships);
          and.push(
            allAvailable
              ? { $or: [{ visibility: { $in: ['public', 'internal'] } }, ...authorized.$or!] }
              : authorized,
          );
        }
      }
    }
    if (query.top_level_only) and.push({ parentId: null });
    if (query.visibility) and.push({ visibility: query.visibility });
    if (query.search) {
      const pattern = searchPattern(query.search);
      and.push({ $or: [{ name: pattern }, { path: pattern }] });
    }
    return { $and: and };
  }

  /** One offset page of the list. */
  async function list(
    query: ListGroupsQuery,
    principal: Principal | null,
    page: PageRequest,
    parentId?: number,
    ancestorId?: number,
  ): Promise<{ total: number; groups: NamespaceDoc[] }> {
    const filter = await listFilter(query, principal, parentId, ancestorId);
    const direction = query.sort === 'desc' ? -1 : 1;
    const orderBy = query.order_by ?? 'name';
    const sort: Record<string, 1 | -1> =
      orderBy === 'id' ? { _id: direction } : { [orderBy]: direction, _id: 1 };
    const { total, docs } = await stores.namespaces.page(filter, sort, page);
    return { total, groups: docs };
  }

  /**
   * One keyset page of the list in its default order, name then id ascending (GitLab's Paginator adds the
   * id to a non-unique order): the first `limit` groups after `after`, read along the { name, _id } index
   * from the cursor's position, so a deep page costs what the first does.
   */
  async function listByName(
    query: ListGroupsQuery,
    principal: Principal | null,
    after: GroupCursor | null,
    limit: number,
    parentId?: number,
    ancestorId?: number,
  ): Promise<NamespaceDoc[]> {
    const filter = await listFilter(query, principal, parentId, ancestorId);
    const sort = { name: 1, _id: 1 } as const;
    // The first page (no cursor) has the offset list's own filter: the same read as its first page.
    if (!after) return stores.namespaces.seek(filter, sort, limit);
    const from: FilterQuery<NamespaceDoc> = {
      name: { $gte: after.name },
      $or: [{ name: { $gt: after.name } }, { name: after.name, _id: { $gt: after.id } }],
    };
    return stores.namespaces.seek({ $and: [from, filter] }, sort, limit);
  }

  /** GroupDetail#projects: the group's own projects the caller can see. */
  async function directProjects(group: NamespaceDoc, principal: Principal | null): Promise<ProjectDoc[]> {
    const memberships =
      principal && !principal.isAdmin ? await membershipsOf(stores.members, principal.id) : null;
    const visible = visibleProjectsFilter(principal, memberships);
    return stores.projects.newestIn(group._id, visible, GROUP_PROJECTS_LIMIT);
  }

  return { list, listByName, directProjects };
}
export type GroupsFinder = ReturnType<typeof createGroupsFinder>;
