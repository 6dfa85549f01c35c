import type { InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import { ACCESS_LEVELS } from '@gl/contracts';
import { ForbiddenError, NotFoundError, accessLevelOf, requireUser } from '@gl/service-kit';

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
