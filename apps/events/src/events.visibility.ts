import type { FilterQuery } from 'mongoose';
import type { Principal } from '@gl/contracts';
import type { ActivityDoc, EventsModels } from './events.models';

export interface Memberships {
  groupIds: number[];
  projectIds: number[];
}

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The caller's active memberships (an expired one grants nothing, as in GitLab). */
export async function membershipsOf(models: EventsModels, userId: number): Promise<Memberships> {
  const rows = await models.members.find({ userId }).lean();
  const now = today();
  const active = rows.filter((row) => row.expiresAt === null || row.expiresAt > now);
  return {
    groupIds: active.filter((row) => row.sourceType === 'group').map((row) => row.sourceId),
    projectIds: active.filter((row) => row.sourceType === 'project').map((row) => row.sourceId),
  };
}

/** Projects the caller is a member of, directly or through a containing group (`authorized_projects`). */
export async function authorizedProjectIds(
  models: EventsModels,
  memberships: Memberships,
): Promise<number[]> {
  const rows = await models.projects
    .find({
      destroyed: { $ne: true },
      $or: [{ _id: { $in: memberships.projectIds } }, { ancestorGroupIds: { $in: memberships.groupIds } }],
    })
    .select({ _id: 1 })
    .lean();
  return rows.map((row) => row._id);
}

/**
 * The activity events a caller may see, as a query condition so visibility applies before paging:
 * events of projects that are public, internal (signed in) or the caller's; group-level events (epics,
 * milestones) of groups likewise; events with neither only to their author. Null: no restriction (admin).
 */
export async function visibleActivityFilter(
  models: EventsModels,
  principal: Principal | null,
): Promise<FilterQuery<ActivityDoc> | null> {
  if (principal?.isAdmin) return null;
  const open = principal ? ['public', 'internal'] : ['public'];
  const memberships = principal
    ? await membershipsOf(models, principal.id)
    : { groupIds: [], projectIds: [] };
  const [projects, groups] = await Promise.all([
    models.projects
      .find({
        destroyed: { $ne: true },
        $or: [
          { visibility: { $in: open } },
          { _id: { $in: memberships.projectIds } },
          { ancestorGroupIds: { $in: memberships.groupIds } },
        ],
      })
      .select({ _id: 1 })
      .lean(),
    models.groups
      .find({
        destroyed: { $ne: true },
        $or: [
          { visibility: { $in: open } },
          { _id: { $in: memberships.groupIds } },
          { ancestorGroupIds: { $in: memberships.groupIds } },
        ],
      })
      .select({ _id: 1 })
      .lean(),
  ]);
  const conditions: FilterQuery<ActivityDoc>[] = [
    { projectId: { $in: projects.map((p) => p._id) } },
    { projectId: null, groupId: { $in: groups.map((g) => g._id) } },
  ];
  if (principal) conditions.push({ projectId: null, groupId: null, authorId: principal.id });
  return { $or: conditions };
}
