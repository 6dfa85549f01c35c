import { DURABLES, type EventEnvelope } from '@gl/contracts';
import {
  applyIdentityEvent,
  identitySubjects,
  markDestroyed,
  projectIdentity,
  type IdentityHandlers,
  type Subscription,
} from '@gl/service-kit';
import type { NotificationsModels } from './models';
import type { SettingsService } from './settings.service';

/** Records ancestry unless the namespace was destroyed (a late created/updated must not resurrect it). */
function recordNamespace(
  models: NotificationsModels,
  kind: 'group' | 'project',
  sourceId: number,
  ancestorGroupIds: number[],
  event: EventEnvelope,
): Promise<boolean> {
  return projectIdentity(
    models.namespaces,
    `${kind}:${sourceId}`,
    event,
    { kind, sourceId, ancestorGroupIds },
    { unlessDestroyed: true },
  );
}

/**
 * The notifications service's view of identity: users' e-mail addresses (the allowed notification
 * e-mails), group and project ancestry (effective levels), and removal of the settings of deleted groups
 * and projects, with everything below a deleted group. Every handler writes the state the event carries,
 * so a redelivered event changes nothing.
 */
export function identityProjection(models: NotificationsModels, settings: SettingsService): Subscription {
  const removeNamespace = async (
    kind: 'group' | 'project',
    sourceId: number,
    ancestorGroupIds: number[],
  ): Promise<void> => {
    await markDestroyed(models.namespaces, `${kind}:${sourceId}`, { kind, sourceId, ancestorGroupIds });
    await settings.removeSource(kind, sourceId);
  };
  const handlers: IdentityHandlers = {
    user: async (data, event) => {
      const applied = await projectIdentity(models.users, data.userId, event, {
        email: data.email,
        emails: data.emails,
      });
      // GitLab unsets the notification e-mail when that address is removed from the user.
      if (applied) await settings.forgetNotificationEmail(data.userId, [data.email, ...data.emails]);
    },
    group: (data, event) => recordNamespace(models, 'group', data.groupId, data.ancestorGroupIds, event),
    groupDestroyed: async (data) => {
      await removeNamespace('group', data.groupId, data.ancestorGroupIds);
      // Subgroups and projects go with their group, whether or not their own events follow.
      const below = await models.namespaces.find({ ancestorGroupIds: data.groupId }).lean();
      for (const namespace of below)
        await removeNamespace(namespace.kind, namespace.sourceId, namespace.ancestorGroupIds);
    },
    project: (data, event) =>
      recordNamespace(models, 'project', data.projectId, data.ancestorGroupIds, event),
    projectDestroyed: (data) => removeNamespace('project', data.projectId, data.ancestorGroupIds),
  };
  return {
    durable: DURABLES.notificationsIdentity,
    filterSubjects: identitySubjects(handlers),
    handle: async (event) => {
      await applyIdentityEvent(handlers, event);
    },
  };
}
