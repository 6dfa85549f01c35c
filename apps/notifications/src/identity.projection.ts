import { DURABLES } from '@gl/contracts';
import {
  applyIdentityEvent,
  identitySubjects,
  type IdentityHandlers,
  type Subscription,
} from '@gl/service-kit';
import type { IdentityStore, NamespaceKind } from './identity.store';
import type { SettingsService } from './settings.service';

/**
 * The notifications service's view of identity: users' e-mail addresses (the allowed notification
 * e-mails), group and project ancestry (effective levels), and removal of the settings of deleted groups
 * and projects, with everything below a deleted group. Every handler writes the state the event carries,
 * so a redelivered event changes nothing.
 */
export function identityProjection(identity: IdentityStore, settings: SettingsService): Subscription {
  const removeNamespace = async (
    kind: NamespaceKind,
    sourceId: number,
    ancestorGroupIds: number[],
  ): Promise<void> => {
    await identity.markNamespaceDestroyed(kind, sourceId, ancestorGroupIds);
    await settings.removeSource(kind, sourceId);
  };
  const handlers: IdentityHandlers = {
    user: async (data, event) => {
      const applied = await identity.recordUser(data.userId, data.email, data.emails, event);
      // GitLab unsets the notification e-mail when that address is removed from the user.
      if (applied) await settings.forgetNotificationEmail(data.userId, [data.email, ...data.emails]);
    },
    group: (data, event) => identity.recordNamespace('group', data.groupId, data.ancestorGroupIds, event),
    groupDestroyed: async (data) => {
      await removeNamespace('group', data.groupId, data.ancestorGroupIds);
      // Subgroups and projects go with their group, whether or not their own events follow.
      for (const namespace of await identity.namespacesBelow(data.groupId))
        await removeNamespace(namespace.kind, namespace.sourceId, namespace.ancestorGroupIds);
    },
    project: (data, event) =>
      identity.recordNamespace('project', data.projectId, data.ancestorGroupIds, event),
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
