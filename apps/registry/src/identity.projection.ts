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
import type { RegistryModels } from './models';
import { repositoryPath } from './registry.service';

/**
 * Keeps the registry's copy of projects, groups and memberships: project paths resolve notification
 * repository names, visibility and memberships authorize GET /registry/repositories/:id (which the gateway
 * forwards without a namespace). Every handler is idempotent: it writes the state the event carries, unless a newer event already did.
 */
export function identityProjection(
  models: RegistryModels,
  /** Told each identity revision once applied: access decisions wait for them (registry.router.ts). */
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
): Subscription {
  const handlers: IdentityHandlers = {
    project: async (data, event) => {
      await projectIdentity(
        models.projects,
        data.projectId,
        event,
        {
          fullPath: data.fullPath,
          fullPathLower: data.fullPath.toLowerCase(),
          visibility: data.visibility,
          ancestorGroupIds: data.ancestorGroupIds,
        },
        { unlessDestroyed: true },
      );
      // Keep the stored registry paths in step with the project path (renames and transfers).
      const repositories = await models.repositories.find({ projectId: data.projectId }).lean();
      for (const repository of repositories) {
        const path = repositoryPath(data.fullPath, repository.name);
        if (path !== repository.path)
          await models.repositories.updateOne({ _id: repository._id }, { $set: { path } });
      }
    },
    projectDestroyed: (data) =>
      markDestroyed(models.projects, data.projectId, {
        fullPathLower: `\u0000destroyed/${data.projectId}`,
      }),
    group: (data, event) =>
      projectIdentity(
        models.groups,
        data.groupId,
        event,
        { fullPath: data.fullPath, ancestorGroupIds: data.ancestorGroupIds, visibility: data.visibility },
        { unlessDestroyed: true },
      ),
    groupDestroyed: (data) => markDestroyed(models.groups, data.groupId),
    member: (data, event) => recordMembership(models.members, data, event),
    memberGone: (data) => forgetMembership(models.members, data),
  };
  return {
    durable: DURABLES.registryIdentity,
    filterSubjects: identitySubjects(handlers),
    async handle(event) {
      await applyIdentityEvent(handlers, event);
      await revisions?.applied(event);
    },
  };
}
