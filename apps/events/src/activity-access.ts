import type { FilterQuery } from 'mongoose';
import type { ActivityEventsQuery, InternalContext, Principal } from '@gl/contracts';
import { viewerOf, type TargetViewer } from '@gl/service-kit';
import { activityCriteria } from './activity-criteria';
import { reachBranches, readerClass, type ReaderClass } from './activity-reach';
import type { AccessCache } from './access.cache';
import type { ActivityDoc } from './events.models';
import { NO_MEMBERSHIPS, membershipsOf, viewerOn, type AuthorizedProjects } from './events.visibility';

/**
 * Which events a caller reads, as conditions of the log's query: the rule of events.visibility.ts (GitLab's
 * Event#visible_to_user? with the read rule of target-access.ts) on the fields each event stores (its
 * project or group, and its reach and readers, activity-reach.ts). Each project or group the caller reads
 * goes into the branch of how they read it: everything (Reporter and up), or what their reader class reads
 * plus what names them. A project or group the caller cannot read is in no branch; nor is one this service
 * does not know. Every condition is one the database answers exactly from the list's index.
 */
export type ActivityFilter = FilterQuery<ActivityDoc>;

/** Matches nothing (an empty `$in` the database answers without reading). */
const NOTHING: ActivityFilter = { _id: { $in: [] } };

/** EventsFinder's filters (action, target_type, before, after) as conditions of the query. */
export function criteriaFilter(query: ActivityEventsQuery): ActivityFilter {
  const { action, targetType, createdBefore, createdFrom } = activityCriteria(query);
  const filter: ActivityFilter = {};
  if (action) filter.action = action;
  if (targetType) filter.targetType = targetType;
  if (createdBefore || createdFrom) {
    filter.createdAt = {
      ...(createdBefore && { $lt: createdBefore }),
      ...(createdFrom && { $gte: createdFrom }),
    };
  }
  return filter;
}

/** `$or` of branches, the branch itself when alone, NOTHING when there is none. */
function anyOf(branches: ActivityFilter[]): ActivityFilter {
  if (branches.length === 0) return NOTHING;
  if (branches.length === 1) return branches[0]!;
  return { $or: branches };
}

/** Projects (or groups) by the caller's class there, as branches; group events are those of no project. */
function namespaceBranches(
  field: 'projectId' | 'groupId',
  viewers: Iterable<[number, TargetViewer]>,
  userId: number | null,
): ActivityFilter[] {
  const byClass = new Map<ReaderClass, number[]>();
  for (const [id, viewer] of viewers) {
    const c = readerClass(viewer);
    if (c === 'none') continue;
    const ids = byClass.get(c);
    if (ids) ids.push(id);
    else byClass.set(c, [id]);
  }
  const scope = field === 'groupId' ? { projectId: null } : {};
  const branches: ActivityFilter[] = [];
  for (const [c, ids] of byClass) {
    const where = { ...scope, [field]: { $in: ids } };
    if (c === 'all') branches.push(where);
    else for (const reach of reachBranches(c as number, userId)) branches.push({ ...where, ...reach });
  }
  return branches;
}

/**
 * What the caller reads of any author's events (/events, /users/:id/events): events of the projects and
 * groups they read, each by their class there, and events of neither only to their own author. Null: all
 * (an administrator).
 */
export async function readableFilter(
  access: AccessCache,
  principal: Principal | null,
): Promise<ActivityFilter | null> {
  if (principal?.isAdmin) return null;
  const [memberships, { projects, groups }] = await Promise.all([
    principal ? membershipsOf(access, principal.id) : NO_MEMBERSHIPS,
    access.rows(),
  ]);
  const userId = principal?.id ?? null;
  const live = <T extends { destroyed: boolean }>(rows: T[]) => rows.filter((row) => !row.destroyed);
  const branches = [
    ...namespaceBranches(
      'projectId',
      live(projects).map((p) => [p._id, viewerOn(principal, memberships, 'project', p)]),
      userId,
    ),
    ...namespaceBranches(
      'groupId',
      live(groups).map((g) => [g._id, viewerOn(principal, memberships, 'group', g)]),
      userId,
    ),
  ];
  if (userId !== null) branches.push({ projectId: null, groupId: null, authorId: userId });
  return anyOf(branches);
}

/**
 * scope=all: the events of the caller's projects (`authorized_projects`), each by their class there.
 *
 * A few projects are sought one by one (`projectId $in` on the project index: each range is left once no
 * later event can enter the page). Most of the projects are better walked in id order along the index led by
 * `_id`, which holds project and reach, so a deep page skips index entries instead of sorting the events of
 * every project: the projects then go only inside `$or`, and the `_id` range (always true) is what the
 * database seeks on, which makes it name that index (FerretDB patch 0018: the ordered index with the most
 * sought leading columns).
 */
export function authorizedFilter(authorized: AuthorizedProjects, principal: Principal): ActivityFilter {
  const branches = namespaceBranches('projectId', authorized.viewers, principal.id);
  if (branches.length === 0) return NOTHING;
  if (authorized.ids.size * 2 >= authorized.known) return { _id: { $gt: 0 }, $or: branches };
  return { projectId: { $in: [...authorized.ids] }, ...anyOf(branches) };
}

/**
 * /projects/:id/events: the gateway signed the caller's level and the project's visibility, so the class
 * comes from the request. Null: the caller reads every event of the project.
 */
export function projectReachFilter(ctx: InternalContext): ActivityFilter | null {
  const viewer = viewerOf(ctx);
  const c = readerClass(viewer);
  if (c === 'all') return null;
  if (c === 'none') return NOTHING;
  return anyOf(reachBranches(c, viewer.userId));
}
