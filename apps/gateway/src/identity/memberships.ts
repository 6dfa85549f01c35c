import type { FilterQuery } from 'mongoose';
import type { Principal } from '@gl/contracts';
import type { NamespaceDoc, ProjectDoc } from './identity.models';
import type { MembersStore } from './members.store';
import type { ProjectsStore } from './projects.store';
import { hasExpired } from '@gl/service-kit';

/**
 * A caller's active (non-expired) memberships, read once per list request and turned into the filters
 * that select what they may see, the way GitLab's finders join on authorizations.
 */
export interface Memberships {
  groups: Map<number, number>;
  projects: Map<number, number>;
}

interface LevelRow {
  accessLevel: number;
  expiresAt: string | null;
}

/** A project caller's levels: on the project (its groups' and its own memberships), and on its groups only. */
export interface ProjectLevels {
  project: number;
  groups: number;
}

/** The one membership-level rule: the highest level among rows not expired today, 0 without any. */
export function highestLevel(rows: readonly LevelRow[], from = 0): number {
  return rows.reduce((max, row) => (hasExpired(row.expiresAt) ? max : Math.max(max, row.accessLevel)), from);
}

export async function membershipsOf(members: MembersStore, userId: number): Promise<Memberships> {
  const rows = await members.rowsOf(userId);
  const result: Memberships = { groups: new Map(), projects: new Map() };
  for (const row of rows) {
    const target = row.sourceType === 'group' ? result.groups : result.projects;
    target.set(row.sourceId, highestLevel([row], target.get(row.sourceId) ?? 0));
  }
  return result;
}

/** The caller's highest non-expired membership on any of the given groups or the project. */
export async function membershipLevel(
  members: MembersStore,
  userId: number,
  groupIds: number[],
  projectId?: number,
): Promise<number> {
  return highestLevel(await members.levelRows(userId, groupIds, projectId));
}

/**
 * The caller's level on a project and, without the project's own memberships, on the groups above it:
 * what GitLab checks for a group-level action started from a project (`authorize! :admin_label,
 * parent.group` in lib/api/helpers/label_helpers.rb, `:admin_milestone, user_project.group` in
 * lib/api/project_milestones.rb).
 */
export async function projectLevels(
  members: MembersStore,
  userId: number,
  groupIds: number[],
  projectId: number,
): Promise<ProjectLevels> {
  const rows = await members.levelRows(userId, groupIds, projectId);
  return {
    project: highestLevel(rows),
    groups: highestLevel(rows.filter((row) => row.sourceType === 'group')),
  };
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
  projects: ProjectsStore,
  memberships: Memberships,
): Promise<FilterQuery<NamespaceDoc>> {
  const groupIds = [...memberships.groups.keys()];
  const projectGroups =
    memberships.projects.size === 0 ? [] : await projects.groupIdsOf([...memberships.projects.keys()]);
  return {
    kind: 'group',
    $or: [{ _id: { $in: [...groupIds, ...projectGroups] } }, { ancestorIds: { $in: groupIds } }],
  };
}
