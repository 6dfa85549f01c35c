import { ACCESS_LEVELS, type InternalContext, type Principal } from '@gl/contracts';
import {
  canReadTarget,
  seesEveryTarget,
  type AccessTarget,
  type TargetKind,
  type TargetViewer,
  todayUtc,
} from '@gl/service-kit';
import type { AccessCache, GroupAccessRow, ProjectAccessRow } from './access.cache';
import type { ActivityDoc } from './events.models';

export interface Memberships {
  groupIds: number[];
  projectIds: number[];
  /** Access level by `<sourceType>:<sourceId>`. */
  levels: Map<string, number>;
}

/** The caller's active memberships (an expired one grants nothing, as in GitLab). */
export async function membershipsOf(access: AccessCache, userId: number): Promise<Memberships> {
  const rows = await access.memberRows(userId);
  const now = todayUtc();
  const active = rows.filter((row) => row.expiresAt === null || row.expiresAt > now);
  return {
    groupIds: active.filter((row) => row.sourceType === 'group').map((row) => row.sourceId),
    projectIds: active.filter((row) => row.sourceType === 'project').map((row) => row.sourceId),
    levels: new Map(active.map((row) => [`${row.sourceType}:${row.sourceId}`, row.accessLevel])),
  };
}

export const NO_MEMBERSHIPS: Memberships = { groupIds: [], projectIds: [], levels: new Map() };

/**
 * The caller's access level on a project or group: its own membership or one in a group above it, the
 * highest (GitLab's max_member_access_for_user).
 */
function levelOn(
  memberships: Memberships,
  kind: 'project' | 'group',
  row: { _id: number; ancestorGroupIds?: number[] },
): number {
  let level = memberships.levels.get(`${kind}:${row._id}`) ?? ACCESS_LEVELS.none;
  for (const id of row.ancestorGroupIds ?? []) {
    level = Math.max(level, memberships.levels.get(`group:${id}`) ?? ACCESS_LEVELS.none);
  }
  return level;
}

/** The caller as a reader of one project or group: its level there and the namespace's visibility. */
export function viewerOn(
  principal: Principal | null,
  memberships: Memberships,
  kind: 'project' | 'group',
  row: ProjectAccessRow | GroupAccessRow,
): TargetViewer {
  return {
    userId: principal?.id ?? null,
    isAdmin: principal?.isAdmin ?? false,
    accessLevel: levelOn(memberships, kind, row),
    namespaceVisibility: row.visibility,
  };
}

const KINDS: Record<string, TargetKind> = {
  Issue: 'Issue',
  MergeRequest: 'MergeRequest',
  Snippet: 'Snippet',
  Epic: 'Epic',
  Milestone: 'Milestone',
  Commit: 'Code',
};

/**
 * What an activity event is about, for the read rule (Event#capabilities): pushes and commit notes are
 * code, a note is read as its noteable (with `internal`), issues, merge requests, snippets, epics and
 * milestones as themselves, the rest (project created, membership changes) as the project.
 *
 * An event published before events carried the audience is read conservatively: a snippet as private, an
 * epic as confidential, a merge request without its author and assignees (no Guest exception).
 */
export function activityTarget(activity: ActivityDoc): AccessTarget {
  const type = activity.pushData ? 'Commit' : (activity.note?.noteableType ?? activity.targetType);
  const kind: TargetKind = (type ? KINDS[type] : undefined) ?? 'Project';
  // Assigned, not spread: a leading spread costs a hidden class per added field, per event of a page.
  if (activity.audience) return Object.assign({}, activity.audience, { kind });
  if (kind === 'Snippet') return { kind, visibility: 'private' };
  if (kind === 'Epic') return { kind, confidential: true };
  return { kind };
}

export interface AuthorizedProjects {
  ids: Set<number>;
  /** How many projects (not destroyed) this service knows: how large a share `ids` is. */
  known: number;
  /** The caller as a reader of each of them. */
  viewers: Map<number, TargetViewer>;
  /**
   * The per-event read rule for these projects' events, or null when the caller reads every target in all
   * of them (Reporter and up everywhere, or an admin).
   */
  targets: ((activity: ActivityDoc) => boolean) | null;
}

/** Projects the caller is a member of, directly or through a containing group (`authorized_projects`). */
export async function authorizedProjects(
  access: AccessCache,
  principal: Principal,
): Promise<AuthorizedProjects> {
  const [memberships, { projects }] = await Promise.all([membershipsOf(access, principal.id), access.rows()]);
  const ids = new Set<number>();
  const viewers = new Map<number, TargetViewer>();
  let everyTarget = true;
  let known = 0;
  for (const row of projects) {
    if (!row.destroyed) known += 1;
    const viewer = viewerOn(principal, memberships, 'project', row);
    if (viewer.accessLevel >= ACCESS_LEVELS.guest && !row.destroyed) {
      ids.add(row._id);
      viewers.set(row._id, viewer);
      everyTarget &&= seesEveryTarget(viewer);
    }
  }
  const targets = everyTarget
    ? null
    : (activity: ActivityDoc) => {
        const viewer = activity.projectId !== null ? viewers.get(activity.projectId) : undefined;
        return !!viewer && canReadTarget(viewer, activityTarget(activity));
      };
  return { ids, known, viewers, targets };
}

/**
 * Which activity events a caller may see, as a check applied to each event before paging — GitLab's
 * Event#visible_to_user? with the read rule every service uses (target-access.ts): the event's project or
 * group must be readable (public, internal when signed in, or the caller's), and then its target: merge
 * requests and code need Reporter on private projects, confidential issues and epics, private snippets and
 * internal notes only for whom their own service shows them. Events with neither project nor group only
 * to their author. Null: no restriction (admin).
 */
export async function activityVisibility(
  access: AccessCache,
  principal: Principal | null,
): Promise<((activity: ActivityDoc) => boolean) | null> {
  if (principal?.isAdmin) return null;
  const [memberships, { projects, groups }] = await Promise.all([
    principal ? membershipsOf(access, principal.id) : NO_MEMBERSHIPS,
    access.rows(),
  ]);
  const viewers = new Map<string, TargetViewer>();
  for (const p of projects) {
    if (!p.destroyed) viewers.set(`project:${p._id}`, viewerOn(principal, memberships, 'project', p));
  }
  for (const g of groups) {
    if (!g.destroyed) viewers.set(`group:${g._id}`, viewerOn(principal, memberships, 'group', g));
  }
  return (activity) => {
    const key =
      activity.projectId !== null
        ? `project:${activity.projectId}`
        : activity.groupId !== null
          ? `group:${activity.groupId}`
          : null;
    if (key === null) return principal !== null && activity.authorId === principal.id;
    const viewer = viewers.get(key);
    return !!viewer && canReadTarget(viewer, activityTarget(activity));
  };
}

/** The gateway resolved the project for this caller; its visibility is checked here all the same. */
export function canSeeProject(ctx: InternalContext): boolean {
  const ns = ctx.namespace;
  if (!ns) return false;
  if (ctx.principal?.isAdmin || ns.visibility === 'public') return true;
  if (ns.visibility === 'internal' && ctx.principal) return true;
  return ns.accessLevel >= ACCESS_LEVELS.guest;
}
