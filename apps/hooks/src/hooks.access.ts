import { ACCESS_LEVELS, type InternalContext, type NamespaceContext } from '@gl/contracts';
import { ForbiddenError, accessLevelOf, isHigherTier, requireNamespace, requireUser } from '@gl/service-kit';
import type { HookParent } from './hooks.models';

/** lib/api/project_hooks.rb: `authenticate!`, then `authorize! :admin_web_hook` (Maintainer): 401, 404, 403. */
export function projectAdmin(ctx: InternalContext): NamespaceContext {
  requireUser(ctx);
  const ns = requireNamespace(ctx, 'project');
  if (accessLevelOf(ctx) < ACCESS_LEVELS.maintainer) throw new ForbiddenError();
  return ns;
}

/**
 * ee/lib/api/group_hooks.rb: `authenticate!`, then `authorize! :admin_web_hook, user_group`, which EE's
 * GroupPolicy grants Owners where the licence has group webhooks (Premium): 401, 404, then 403 for a lower
 * role or a Free instance.
 */
export function groupAdmin(ctx: InternalContext): NamespaceContext {
  requireUser(ctx);
  const ns = requireNamespace(ctx, 'group');
  if (!isHigherTier(ctx) || accessLevelOf(ctx) < ACCESS_LEVELS.owner) throw new ForbiddenError();
  return ns;
}

export const parentOf = (ns: NamespaceContext): HookParent => ({ kind: ns.kind, id: ns.id });
