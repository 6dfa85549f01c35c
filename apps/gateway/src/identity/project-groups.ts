import type { FilterQuery } from 'mongoose';
import type { Principal } from '@gl/contracts';
import type { PageRequest } from '@gl/service-kit';
import type { IdentityStores } from './identity.stores';
import type { NamespaceDoc, ProjectDoc } from './identity.models';
import { authorizedGroupsFilter, membershipsOf } from './memberships';
import { searchPattern } from './queries';

/**
 * Projects::GroupsFinder without shared groups: the project's group and its ancestors, those the caller
 * may read (public ones, internal ones for signed-in users, others through a membership), `search` and
 * `skip_groups` applied, newest id first.
 */
export async function projectGroups(
  stores: IdentityStores,
  project: ProjectDoc,
  principal: Principal | null,
  query: { search?: string; skip_groups?: number[] },
  page: PageRequest,
): Promise<{ total: number; groups: NamespaceDoc[] }> {
  const and: FilterQuery<NamespaceDoc>[] = [{ _id: { $in: project.ancestorGroupIds } }];
  if (!principal) {
    and.push({ visibility: 'public' });
  } else if (!principal.isAdmin) {
    const memberships = await membershipsOf(stores.members, principal.id);
    const authorized = await authorizedGroupsFilter(stores.projects, memberships);
    and.push({ $or: [{ visibility: { $in: ['public', 'internal'] } }, ...authorized.$or!] });
  }
  if (query.skip_groups && query.skip_groups.length > 0) and.push({ _id: { $nin: query.skip_groups } });
  if (query.search) {
    const pattern = searchPattern(query.search);
    and.push({ $or: [{ name: pattern }, { path: pattern }] });
  }
  const { total, docs } = await stores.namespaces.page({ $and: and }, { _id: -1 }, page);
  return { total, groups: docs };
}
