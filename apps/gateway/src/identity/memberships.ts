import type { FilterQuery } from 'mongoose';
import type { Principal } from '@gl/contracts';
import type { IdentityModels, NamespaceDoc, ProjectDoc } from './identity.models';
import { hasExpired } from '@gl/service-kit';

/**
 * A caller's active (non-expired) memberships, read once per list request and turned into the filters
 * that select what they may see, the way GitLab's finders join on authorizations.
 */
export interface Memberships {
  groups: Map<number, number>;
  projects: Map<number, number>;
}

export function isExpired(expiresAt: string | null): boolean {
  return hasExpired(expiresAt);
}

export async function membershipsOf(models: IdentityModels, userId: number): Promise<Memberships> {
  const rows = await models.members
    .find({ userId })
    .select({ sourceType: 1, sourceId: 1, accessLevel: 1, expiresAt: 1 })
    .lean();
  const result: Memberships = { groups: new Map(), projects: new Map() };
  for (const row of rows) {
    if (isExpired(row.expiresAt)) continue;
    const target = row.sourceType === 'group' ? result.groups : result.projects;
    target.set(row.sourceId, Math.max(target.get(row.sourceId) ?? 0, row.accessLevel));
  }
  return result;
}

/** Highest level among the given groups (inherited) and the project itself. */
export function levelIn(memberships: Memberships, groupIds: number[], projectId?: number): number {
  let level = projectId === undefined ? 0 : (memberships.projects.get(projectId) ?? 0);
  for (const id of groupIds) level = Math.max(level, memberships.groups.get(id) ?? 0);
  return level;
}

/** Projects the caller is authorized for: direct project members, and members of any containing group. */
export function authorizedProjectsFilter(memberships: Memberships): FilterQuery<ProjectDoc> {
  return {
    $or: [
      { _id: { $in: [...memberships.projects.keys()] } },
      { ancestorGroupIds: { $in: [...memberships.groups.keys()] } },
    ],
  };
}

/** Every project the caller can see: public ones, internal ones when signed in, and authorized ones. */
export function visibleProjectsFilter(
  principal: Principal | null,
  memberships: Memberships | null,
): FilterQuery<ProjectDoc> {
  if (!principal) return { visibility: 'public' };
  if (principal.isAdmin) return {};
  const authorized = authorizedProjectsFilter(memberships ?? { groups: new Map(), projects: new Map() });
  return { $or: [{ visibility: { $in: ['public', 'internal'] } }, ...authorized.$or!] };
}

/** Groups the caller belongs to, their subgroups, and the groups holding projects they belong to. */
export async function authorizedGroupsFilter(
  models: IdentityModels,
  memberships: Memberships,
): Promise<FilterQuery<NamespaceDoc>> {
  const groupIds = [...memberships.groups.keys()];
  const projectGroups =
    memberships.projects.size === 0
      ? []
      : await models.projects
          .find({ _id: { $in: [...memberships.projects.keys()] }, namespaceKind: 'group' })
          .select({ namespaceId: 1 })
          .lean();
  return {
    kind: 'group',
    $or: [
      { _id: { $in: [...groupIds, ...projectGroups.map((p) => p.namespaceId)] } },
      { ancestorIds: { $in: groupIds } },
    ],
  };
}
