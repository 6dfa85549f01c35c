import type { Principal } from '@gl/contracts';
import { NotFoundError } from '@gl/service-kit';
import type { IdentityStores } from './identity.stores';
import type { NamespaceDoc } from './identity.models';
import { membershipLevel } from './memberships';

/**
 * API::Helpers#find_namespace! with `read_namespace_via_membership`: a personal namespace for its owner,
 * a group for members of it or of a group above it, anything for administrators; otherwise the same
 * `404 Namespace Not Found` as an unknown one. Returns the caller's level in a group (0 otherwise).
 */
export async function findReadableNamespace(
  stores: IdentityStores,
  idOrPath: string,
  principal: Principal,
): Promise<{ namespace: NamespaceDoc; level: number }> {
  const namespace = await stores.namespaces.findByIdOrPath(idOrPath);
  if (!namespace) throw new NotFoundError('Namespace');
  const level =
    namespace.kind === 'group'
      ? await membershipLevel(stores.members, principal.id, [...namespace.ancestorIds, namespace._id])
      : 0;
  const readable =
    principal.isAdmin || (namespace.kind === 'user' ? namespace.ownerId === principal.id : level > 0);
  if (!readable) throw new NotFoundError('Namespace');
  return { namespace, level };
}
