import { DURABLES } from '@gl/contracts';
import {
  applyIdentityEvent,
  forgetMembership,
  identitySubjects,
  markDestroyed,
  projectIdentity,
  recordMembership,
  type IdentityHandlers,
  type ProjectionRevisions,
  type Subscription,
} from '@gl/service-kit';
import type { DiscussionsModels } from './discussions.models';

/**
 * Keeps discussions' copy of projects and memberships: group and instance lists of issues and merge
 * requests read which projects a group's subtree holds and which of them the caller reads
 * (issuables.scope.ts). Idempotent: each handler writes the state its event carries unless a newer one did.
 */
export function identityProjection(
  models: Pick<DiscussionsModels, 'projects' | 'groups' | 'members'>,
  /** Told each identity revision once applied: wider lists wait for the caller's (issuables.router.ts). */
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
): Subscription {
  const handlers: IdentityHandlers = {
    project: (data, event) =>
      projectIdentity(
        models.projects,
        data.projectId,
        event,
        {
          fullPath: data.fullPath,
          visibility: data.visibility,
          ancestorGroupIds: data.ancestorGroupIds,
          rootGroupId: data.ancestorGroupIds[0] ?? null,
        },
        { unlessDestroyed: true },
      ),
    projectDestroyed: (data) => markDestroyed(models.projects, data.projectId),
    member: (data, event) => recordMembership(models.members, data, event),
    memberGone: (data) => forgetMembership(models.members, data),
    group: (data, event) =>
      projectIdentity(
        models.groups,
        data.groupId,
        event,
        { rootGroupId: data.ancestorGroupIds[0] ?? data.groupId },
        { unlessDestroyed: true },
      ),
    groupDestroyed: (data) => markDestroyed(models.groups, data.groupId),
  };
  return {
    durable: DURABLES.discussionsIdentity,
    filterSubjects: identitySubjects(handlers),
    async handle(event) {
      await applyIdentityEvent(handlers, event);
      await revisions?.applied(event);
    },
  };
}
