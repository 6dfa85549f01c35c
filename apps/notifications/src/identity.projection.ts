import { DURABLES, EVENT_TYPES, groupEventData, projectEventData, userEventData } from '@gl/contracts';
import { isDuplicateKeyError, type Subscription, eventData, upsertUnlessDestroyed } from '@gl/service-kit';
import type { NotificationsModels } from './models';
import type { SettingsService } from './settings.service';

const ID = EVENT_TYPES.identity;

/** Writes unless a newer event already did (out-of-order redelivery); the duplicate key means "newer". */
async function upsertIfNewer(
  models: NotificationsModels,
  userId: number,
  set: { email: string; emails: string[]; occurredAt: string },
): Promise<boolean> {
  try {
    await models.users.updateOne(
      { _id: userId, occurredAt: { $lte: set.occurredAt } },
      { $set: set },
      { upsert: true },
    );
    return true;
  } catch (err) {
    if (!isDuplicateKeyError(err)) throw err;
    return false;
  }
}

/** Records ancestry unless the namespace was destroyed (a late created/updated must not resurrect it). */
function recordNamespace(
  models: NotificationsModels,
  kind: 'group' | 'project',
  sourceId: number,
  ancestorGroupIds: number[],
): Promise<void> {
  return upsertUnlessDestroyed(models.namespaces, `${kind}:${sourceId}`, {
    kind,
    sourceId,
    ancestorGroupIds,
  });
}

async function markDestroyed(
  models: NotificationsModels,
  kind: 'group' | 'project',
  sourceId: number,
  ancestorGroupIds: number[],
): Promise<void> {
  await models.namespaces.updateOne(
    { _id: `${kind}:${sourceId}` },
    { $set: { kind, sourceId, ancestorGroupIds, destroyed: true } },
    { upsert: true },
  );
}

/**
 * The notifications service's view of identity: users' e-mail addresses (the allowed notification
 * e-mails), group and project ancestry (effective levels), and removal of the settings of deleted groups
 * and projects, with everything below a deleted group. Every handler writes the state the event carries,
 * so a redelivered event changes nothing.
 */
export function identityProjection(models: NotificationsModels, settings: SettingsService): Subscription {
  return {
    durable: DURABLES.notificationsIdentity,
    filterSubjects: [
      ID.userCreated,
      ID.userUpdated,
      ID.groupCreated,
      ID.groupUpdated,
      ID.groupDestroyed,
      ID.projectCreated,
      ID.projectUpdated,
      ID.projectDestroyed,
    ],
    async handle(event) {
      switch (event.type) {
        case ID.userCreated:
        case ID.userUpdated: {
          const data = eventData(userEventData, event);
          const applied = await upsertIfNewer(models, data.userId, {
            email: data.email,
            emails: data.emails,
            occurredAt: event.occurredAt,
          });
          // GitLab unsets the notification e-mail when that address is removed from the user.
          if (applied) await settings.forgetNotificationEmail(data.userId, [data.email, ...data.emails]);
          return;
        }
        case ID.groupCreated:
        case ID.groupUpdated: {
          const data = eventData(groupEventData, event);
          await recordNamespace(models, 'group', data.groupId, data.ancestorGroupIds);
          return;
        }
        case ID.projectCreated:
        case ID.projectUpdated: {
          const data = eventData(projectEventData, event);
          await recordNamespace(models, 'project', data.projectId, data.ancestorGroupIds);
          return;
        }
        case ID.groupDestroyed: {
          const data = eventData(groupEventData, event);
          await markDestroyed(models, 'group', data.groupId, data.ancestorGroupIds);
          await settings.removeSource('group', data.groupId);
          // Subgroups and projects go with their group, whether or not their own events follow.
          const below = await models.namespaces.find({ ancestorGroupIds: data.groupId }).lean();
          for (const namespace of below) {
            await markDestroyed(models, namespace.kind, namespace.sourceId, namespace.ancestorGroupIds);
            await settings.removeSource(namespace.kind, namespace.sourceId);
          }
          return;
        }
        case ID.projectDestroyed: {
          const data = eventData(projectEventData, event);
          await markDestroyed(models, 'project', data.projectId, data.ancestorGroupIds);
          await settings.removeSource('project', data.projectId);
          return;
        }
        default:
          return;
      }
    },
  };
}
