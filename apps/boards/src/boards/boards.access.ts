import type { InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import { ACCESS_LEVELS } from '@gl/contracts';
import {
  ForbiddenError,
  NotFoundError,
  accessLevelOf,
  featureAvailable,
  requireUser,
  signedFeatureLevels,
} from '@gl/service-kit';
import { readableProject } from '../labels/project-labels.access';

/** The group if the caller may read it (public, internal to users, else members): otherwise 404. */
export function readableGroup(ctx: InternalContext): NamespaceContext {
  const ns = ctx.namespace;
  // The error is made only when thrown: capturing its stack on every read cost a visible share of a GET.
  if (!ns || ns.kind !== 'group') throw new NotFoundError('Group');
  if (ns.visibility === 'public') return ns;
  if (ns.visibility === 'internal' && ctx.principal) return ns;
  if (accessLevelOf(ctx) >= ACCESS_LEVELS.guest) return ns;
  throw new NotFoundError('Group');
}

/** A signed-in user with at least `minimum` on a group they can read (404 first, then 403). */
export function groupWriter(
  ctx: InternalContext,
  minimum: number,
): { user: Principal; ns: NamespaceContext } {
  const user = requireUser(ctx);
  const ns = readableGroup(ctx);
  if (accessLevelOf(ctx) < minimum) throw new ForbiddenError();
  return { user, ns };
}

/** Groups whose labels and milestones a board of this group may use: the group and its ancestors. */
export function groupAndAncestors(ns: NamespaceContext): number[] {
  return [ns.id, ...ns.ancestorGroupIds];
}

/**
 * The groups whose labels, milestones and iterations a board of this parent may use: a group board's
 * group and its ancestors, a project board's group and that group's ancestors.
 */
export function boardGroups(ns: NamespaceContext): number[] {
  return ns.kind === 'group' ? groupAndAncestors(ns) : ns.ancestorGroupIds;
}

/**
 * `authorize!(:read_issue_board, user_project)` for a signed-in caller: the project readable (404 Project
 * Not Found), then its issues available to the caller (app/policies/project_policy.rb prevents the board
 * abilities with the issues feature): 403. A context signed without feature levels counts them enabled.
 */
export function projectBoardReader(ctx: InternalContext): NamespaceContext {
  requireUser(ctx);
  const ns = readableProject(ctx);
  if (!featureAvailable(signedFeatureLevels(ns), 'issues', accessLevelOf(ctx))) throw new ForbiddenError();
  return ns;
}

/** `admin_issue_board` / `admin_issue_board_list` on the project: Reporter and up (401, 404, then 403). */
export function projectBoardWriter(ctx: InternalContext): NamespaceContext {
  const ns = projectBoardReader(ctx);
  if (accessLevelOf(ctx) < ACCESS_LEVELS.reporter) throw new ForbiddenError();
  return ns;
}
