import type { InternalContext, NamespaceContext } from '@gl/contracts';
import { requireAccess, requireNamespace, requireUser } from '@gl/service-kit';

/** A signed-in user with at least `minimum` on the addressed project (401, 404, then 403). */
export function projectWith(ctx: InternalContext, minimum: number): NamespaceContext {
  requireUser(ctx);
  const ns = requireNamespace(ctx, 'project');
  requireAccess(ctx, minimum);
  return ns;
}
