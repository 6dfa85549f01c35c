import { DURABLES } from '@gl/contracts';
import {
  accessCopySubscription,
  type AccessCopyOptions,
  type ProjectionRevisions,
  type Subscription,
} from '@gl/service-kit';
import type { RegistryModels } from './models';
import { repositoryPath } from './registry.service';

/**
 * Keeps the registry's copy of projects, groups and memberships (the service kit's one copy,
 * accessCopyHandlers): project paths resolve notification repository names; visibility, feature levels and
 * memberships authorize GET /registry/repositories/:id (which the gateway forwards without a namespace).
 * Every handler is idempotent: it writes the state the event carries, unless a newer event already did.
 */
export function identityProjection(
  models: RegistryModels,
  /** Told each identity revision once applied: access decisions wait for them (registry.router.ts). */
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
): Subscription {
  const options: AccessCopyOptions = {
    projectFields: (data) => ({ fullPathLower: data.fullPath.toLowerCase() }),
    // Keep the stored registry paths in step with the project path (renames and transfers).
    afterProject: async (data) => {
      const repositories = await models.repositories.find({ projectId: data.projectId }).lean();
      for (const repository of repositories) {
        const path = repositoryPath(data.fullPath, repository.name);
        if (path !== repository.path)
          await models.repositories.updateOne({ _id: repository._id }, { $set: { path } });
      }
    },
    destroyedProjectFields: (data) => ({ fullPathLower: `\u0000destroyed/${data.projectId}` }),
  };
  return accessCopySubscription(DURABLES.registryIdentity, models, options, revisions);
}
