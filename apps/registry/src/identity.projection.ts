import { DURABLES, EVENT_TYPES, groupEventData, memberEventData, projectEventData } from '@gl/contracts';
import {
  type ProjectionRevisions,
  type Subscription,
  eventData,
  upsertUnlessDestroyed,
  recordMembership,
  forgetMembership,
} from '@gl/service-kit';
import type { RegistryModels } from './models';
import { repositoryPath } from './registry.service';

const ID = EVENT_TYPES.identity;

/**
 * Keeps the registry's copy of projects, groups and memberships: project paths resolve notification
 * repository names, visibility and memberships authorize GET /registry/repositories/:id (which the gateway
 * forwards without a namespace). Every handler is idempotent: it writes the state the event carries.
 */
export function identityProjection(
  models: RegistryModels,
  /** Told each identity revision once applied: access decisions wait for them (registry.router.ts). */
  revisions: Pick<ProjectionRevisions, 'applied'> | null = null,
): Subscription {
  const subscription: Subscription = {
    durable: DURABLES.registryIdentity,
    filterSubjects: [
      ID.projectCreated,
      ID.projectUpdated,
      ID.projectDestroyed,
      ID.groupCreated,
      ID.groupUpdated,
      ID.groupDestroyed,
      ID.memberAdded,
      ID.memberUpdated,
      ID.memberRemoved,
      ID.memberExpired,
    ],
    async handle(event) {
      switch (event.type) {
        case ID.projectCreated:
        case ID.projectUpdated: {
          const data = eventData(projectEventData, event);
          await upsertUnlessDestroyed(models.projects, data.projectId, {
            fullPath: data.fullPath,
            fullPathLower: data.fullPath.toLowerCase(),
            visibility: data.visibility,
            ancestorGroupIds: data.ancestorGroupIds,
          });
          // Keep the stored registry paths in step with the project path (renames and transfers).
          const repositories = await models.repositories.find({ projectId: data.projectId }).lean();
          for (const repository of repositories) {
            const path = repositoryPath(data.fullPath, repository.name);
            if (path !== repository.path)
              await models.repositories.updateOne({ _id: repository._id }, { $set: { path } });
          }
          return;
        }
        case ID.projectDestroyed: {
          const data = eventData(projectEventData, event);
          await models.projects.updateOne(
            { _id: data.projectId },
            { $set: { destroyed: true, fullPathLower: `\u0000destroyed/${data.projectId}` } },
            { upsert: true },
          );
          return;
        }
        case ID.groupCreated:
        case ID.groupUpdated: {
          const data = eventData(groupEventData, event);
          await upsertUnlessDestroyed(models.groups, data.groupId, {
            fullPath: data.fullPath,
            ancestorGroupIds: data.ancestorGroupIds,
            visibility: data.visibility,
          });
          return;
        }
        case ID.groupDestroyed: {
          const data = eventData(groupEventData, event);
          await models.groups.updateOne(
            { _id: data.groupId },
            { $set: { destroyed: true } },
            { upsert: true },
          );
          return;
        }
        case ID.memberAdded:
        case ID.memberUpdated: {
          const data = eventData(memberEventData, event);
          await recordMembership(models.members, data);
          return;
        }
        case ID.memberRemoved:
        case ID.memberExpired: {
          const data = eventData(memberEventData, event);
          await forgetMembership(models.members, data);
          return;
        }
        default:
          return;
      }
    },
  };
  return {
    ...subscription,
    async handle(event) {
      await subscription.handle(event);
      await revisions?.applied(event);
    },
  };
}
