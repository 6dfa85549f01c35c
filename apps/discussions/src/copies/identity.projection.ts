import { DURABLES } from '@gl/contracts';
import {
  accessCopyHandlers,
  identitySubscription,
  type AccessCopyModels,
  type ProjectionRevisions,
  type Subscription,
} from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';

/**
 * Keeps discussions' copy of projects (with their feature levels) and memberships: group and instance lists
 * of issues and merge requests read which projects a group's subtree holds and which of them the caller
 * reads (issuables.scope.ts); a disabled feature is refused (common/feature-gate.ts). The service kit's one
 * copy (accessCopyHandlers): idempotent, a newer state is never overwritten.
 */
export function identityProjection(
  models: Pick<DiscussionsModels, 'projects' | 'groups' | 'members'>,
  /** Told each identity revision once applied: wider lists wait for the caller's (lists/issuable-pages.ts). */
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
): Subscription {
  const handlers = accessCopyHandlers(models as unknown as AccessCopyModels);
  return identitySubscription(DURABLES.discussionsIdentity, handlers, revisions);
}
