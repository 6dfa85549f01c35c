import type { Principal } from '@gl/contracts';
import type { AccessCache } from './access.cache';
import type { ActivityDoc } from './events.models';

export interface Memberships {
  groupIds: number[];
  projectIds: number[];
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The caller's active memberships (an expired one grants nothing, as in GitLab). */
export async function membershipsOf(access: AccessCache, userId: number): Promise<Memberships> {
  const rows = await access.memberRows(userId);
  const now = today();
  const active = rows.filter((row) => row.expiresAt === null || row.expiresAt > now);
  return {
    groupIds: active.filter((row) => row.sourceType === 'group').map((row) => row.sourceId),
    projectIds: active.filter((row) => row.sourceType === 'project').map((row) => row.sourceId),
  };
}

export interface AuthorizedProjects {
  ids: Set<number>;
  /** Every project that has activity is among them: the all-projects stream needs no per-event check. */
  coversAllWithActivity: boolean;
}

const memberOf = (
  row: { _id: number; ancestorGroupIds?: number[] },
  direct: Set<number>,
  viaGroup: Set<number>,
): boolean => direct.has(row._id) || (row.ancestorGroupIds ?? []).some((id) => viaGroup.has(id));

/** Projects the caller is a member of, directly or through a containing group (`authorized_projects`). */
export async function authorizedProjects(access: AccessCache, userId: number): Promise<AuthorizedProjects> {
  const [memberships, { projects }] = await Promise.all([membershipsOf(access, userId), access.rows()]);
  const direct = new Set(memberships.projectIds);
  const viaGroup = new Set(memberships.groupIds);
  const ids = new Set<number>();
  let coversAllWithActivity = true;
  for (const row of projects) {
    if (memberOf(row, direct, viaGroup) && !row.destroyed) ids.add(row._id);
    else if (row.hasActivity) coversAllWithActivity = false;
  }
  return { ids, coversAllWithActivity };
}

/**
 * Which activity events a caller may see, as a check applied to each event before paging: events of
 * projects that are public, internal (signed in) or the caller's; group-level events (epics, milestones)
 * of groups likewise; events with neither only to their author. Null: no restriction (admin).
 */
export async function activityVisibility(
  access: AccessCache,
  principal: Principal | null,
): Promise<((activity: ActivityDoc) => boolean) | null> {
  if (principal?.isAdmin) return null;
  const open = new Set(principal ? ['public', 'internal'] : ['public']);
  const [memberships, { projects, groups }] = await Promise.all([
    principal ? membershipsOf(access, principal.id) : { groupIds: [], projectIds: [] },
    access.rows(),
  ]);
  const viaGroup = new Set(memberships.groupIds);
  const projectMember = new Set(memberships.projectIds);
  const visibleProjects = new Set(
    projects
      .filter((p) => !p.destroyed && (open.has(p.visibility) || memberOf(p, projectMember, viaGroup)))
      .map((p) => p._id),
  );
  const visibleGroups = new Set(
    groups
      .filter((g) => !g.destroyed && (open.has(g.visibility) || memberOf(g, viaGroup, viaGroup)))
      .map((g) => g._id),
  );
  return (activity) => {
    if (activity.projectId !== null) return visibleProjects.has(activity.projectId);
    if (activity.groupId !== null) return visibleGroups.has(activity.groupId);
    return principal !== null && activity.authorId === principal.id;
  };
}
