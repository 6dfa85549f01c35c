import { DURABLES } from '@gl/contracts';
import {
  accessCopySubscription,
  type ProjectionRevisions,
  type ProjectionVersion,
  type Subscription,
} from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import { createPositionsStore } from '../issues/positions.store';
import { positionScopeOfProject } from '../lists/root-scope';

/**
 * Keeps discussions' copy of projects (with their feature levels) and memberships: group and instance lists
 * of issues and merge requests read which projects a group's subtree holds and which of them the caller
 * reads (issuables.scope.ts); a disabled feature is refused (common/feature-gate.ts). The service kit's one
 * copy (accessCopyHandlers): idempotent, a newer state is never overwritten. A project's issues follow it
 * into another root group (their `positionScope`, lists/root-scope.ts).
 */
export function identityProjection(
  models: Pick<
    DiscussionsModels,
    'projects' | 'groups' | 'members' | 'noteables' | 'positionClaims' | 'positionLeases'
  >,
  /** Told each identity revision once applied: wider lists wait for the caller's (lists/issuable-pages.ts). */
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
  /** Told after each event is applied: group lists read the copies again (lists/scope-reads.ts). */
  changes: Pick<ProjectionVersion, 'bump'> | null = null,
): Subscription {
  const positions = createPositionsStore(models);
  const subscription = accessCopySubscription(
    DURABLES.discussionsIdentity,
    models,
    {
      // A project moved to another root (a transfer of it or of a group above it) takes its issues along,
      // to the root the copy holds now: an older event delivered again must not move them back.
      afterProject: async (data) => {
        const copy = await models.projects.findById(data.projectId).select({ rootGroupId: 1 }).lean();
        if (!copy || copy.rootGroupId === undefined) return;
        await positions.rescopeProject(
          data.projectId,
          positionScopeOfProject(data.projectId, copy.rootGroupId),
        );
      },
    },
    revisions,
  );
  if (!changes) return subscription;
  const { handle } = subscription;
  return {
    ...subscription,
    handle: async (event) => {
      try {
        await handle(event);
      } finally {
        changes.bump();
      }
    },
  };
}
