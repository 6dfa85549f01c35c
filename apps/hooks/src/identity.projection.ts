import { HOOKS_IDENTITY_DURABLE } from '@gl/contracts';
import {
  applyIdentityEvent,
  identitySubjects,
  type IdentityHandlers,
  type Subscription,
} from '@gl/service-kit';
import type { HooksStore } from './hooks.store';

const rootOf = (ancestorGroupIds: number[], self: number | null): number | null =>
  ancestorGroupIds[0] ?? self;

/**
 * What the hooks service takes from identity: a deleted project or group takes its hooks with it (GitLab's
 * `has_many :hooks, dependent: :delete_all`), a deleted group those of everything below it too, and a
 * transferred one moves its hooks' ancestry. Each handler writes the state its event carries, so a
 * redelivered event changes nothing.
 */
export function identityProjection(store: HooksStore): Subscription {
  const handlers: IdentityHandlers = {
    project: (data, event) =>
      store.moveParent(
        { kind: 'project', id: data.projectId },
        {
          ancestorGroupIds: data.ancestorGroupIds,
          rootGroupId: rootOf(data.ancestorGroupIds, null),
          ancestryAt: event.occurredAt,
        },
      ),
    projectDestroyed: async (data) => {
      await store.removeParent({ kind: 'project', id: data.projectId });
    },
    group: (data, event) =>
      store.moveParent(
        { kind: 'group', id: data.groupId },
        {
          ancestorGroupIds: data.ancestorGroupIds,
          rootGroupId: rootOf(data.ancestorGroupIds, data.groupId),
          ancestryAt: event.occurredAt,
        },
      ),
    groupDestroyed: async (data) => {
      await store.removeParent({ kind: 'group', id: data.groupId });
      // Subgroups and projects go with their group, whether or not their own events follow.
      const root = rootOf(data.ancestorGroupIds, data.groupId)!;
      await store.removeIds(await store.idsBelow(data.groupId, root));
    },
  };
  return {
    durable: HOOKS_IDENTITY_DURABLE,
    filterSubjects: identitySubjects(handlers),
    handle: async (event) => {
      await applyIdentityEvent(handlers, event);
    },
  };
}
