import type { IdentityRevision, Principal } from '@gl/contracts';
import type { IdentityDeps } from './identity.deps';
import type { IdentityStores } from './identity.stores';

/**
 * Identity revisions. The events and registry services authorize some requests from their own copies of
 * memberships and visibility, fed by identity events; the gateway's answer (the signed access level) is
 * always current. So that a removal, a downgrade or a visibility change counts everywhere on the very next
 * request, every membership event and every project or group visibility change or removal carries a
 * number from one counter. After the write, the gateway keeps the newest per user (on the user document)
 * and for visibility overall, and signs both into the internal context; a service waits until its copy
 * has applied them (libs/service-kit projection-revisions.ts). The records are kept by the users store
 * (`raiseAccessRevision`) and the revisions store (`raiseVisibility`).
 *
 * Only revisions whose write succeeded are recorded here, so a context never names one that no event
 * carries. Both records are identity writes, so they flush this process's identity cache like any other;
 * another gateway replica signs them once its cache entries expire (IDENTITY_CACHE_TTL_MS), the same
 * bound as for its own access decisions.
 */
const COUNTER = 'identity-revision';

export function nextRevision(deps: Pick<IdentityDeps, 'counters'>): Promise<number> {
  return deps.counters.next(COUNTER);
}

/**
 * What a forwarded request must reflect. Both reads go through the identity cache: the user document is
 * the one authentication just loaded, and either record is read again after any identity write here.
 */
export async function signedRevision(
  stores: Pick<IdentityStores, 'users' | 'revisions'>,
  principal: Principal | null,
): Promise<IdentityRevision> {
  const [visibility, user] = await Promise.all([
    stores.revisions.visibility(),
    principal ? stores.users.cachedById(principal.id) : null,
  ]);
  return { user: user?.accessRevision ?? 0, visibility };
}
