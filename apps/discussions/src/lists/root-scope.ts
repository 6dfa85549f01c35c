import type { IssuableKind } from './finder-filters';

/**
 * Where a project's issues are ordered against each other (Issue.relative_positioning_query_base: the
 * projects of the root group, so a group board orders issues of all its projects together), stored on
 * each issue as `positionScope`: `g<root group id>`, or `p<project id>` for a project outside any group.
 * Every issue carries its project's scope (set at creation, changed with a transfer by the identity
 * projection, filled for older issues by migration 8), so the scope also tells which root an issue is in.
 */
export function positionScopeOfProject(projectId: number, rootGroupId: number | null): string {
  return rootGroupId === null ? `p${projectId}` : rootGroupScope(rootGroupId);
}

const rootGroupScope = (rootGroupId: number): string => `g${rootGroupId}`;

/** The scope of a group's issues: its root group's (the group itself when it is a root). */
export function positionScopeOfGroup(group: { id: number; ancestorGroupIds: number[] }): string {
  return rootGroupScope(group.ancestorGroupIds[0] ?? group.id);
}

/** Fewer projects than this are read as one index range each, which is cheap. */
const MIN_PROJECTS = 8;

/**
 * The root scope a list of issues over these projects may be read under, or null.
 *
 * A group list over many projects was read as one `projectId` range per project, each walked until it
 * could no longer enter the page, and the pieces sorted: 100 projects, a label and `state=opened`, 45-77
 * ms of the database per page and 300 ms at page 100. Read along the (kind, positionScope, createdAt)
 * index instead, with `projectId` checked on each entry, the page is 10-20 ms at any depth. That walk
 * passes the root's other projects' issues too, so it is chosen only when the list holds at least a
 * quarter of the root's projects (`rootProjectCount`, which group scopes carry): a subgroup of one
 * project in a large root keeps its own range.
 */
export function rootScopeOf(
  kind: IssuableKind,
  projects: { ancestorGroupIds?: number[]; rootProjectCount?: number }[],
): string | null {
  if (kind !== 'Issue' || projects.length < MIN_PROJECTS) return null;
  const roots = new Set(projects.map((p) => p.ancestorGroupIds?.[0] ?? null));
  const [root] = roots;
  if (roots.size !== 1 || root === null || root === undefined) return null;
  const inRoot = Math.max(...projects.map((p) => p.rootProjectCount ?? Infinity));
  return projects.length * 4 >= inRoot ? rootGroupScope(root) : null;
}
