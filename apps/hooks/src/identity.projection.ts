import { HOOKS_IDENTITY_DURABLE } from '@gl/contracts';
import {
  applyIdentityEvent,
  identitySubjects,
  type IdentityHandlers,
  type Subscription,
} from '@gl/service-kit';
import type { ParentRemoval } from './delivery/parent-removal';
import type { HookParent } from './hooks.models';
import type { HooksStore } from './hooks.store';

const rootOf = (ancestorGroupIds: number[], self: number | null): number | null =>
  ancestorGroupIds[0] ?? self;

/**
 * What the hooks service takes from identity: a deleted project or group takes its hooks with it (GitLab's
 * `has_many :hooks, dependent: :delete_all`), a deleted group those of everything below it too, with their
 * deliveries and the projects' copies and samples (delivery/parent-removal.ts); a transferred one moves its
 * hooks' ancestry. Each handler writes the state its event carries, so a redelivered event changes nothing.
 */
export function identityProjection(store: HooksStore, removal: ParentRemoval): Subscription {
  /**
   * The hooks' deliveries go before the hooks, so a redelivery after a failure between them still finds
   * the hooks and their deliveries; and again after, for what the delivery consumer queued meanwhile (what
   * it queues later for a hook it read before the deletion, the sender logs as failed: `hook deleted`).
   */
  async function removeHooks(parent: HookParent, below: number[] = []): Promise<void> {
    const ids = [...(await store.idsOf(parent)), ...below];
    await removal.hooksGone(ids);
    await store.removeParent(parent);
    await store.removeIds(below);
    await removal.hooksGone(ids);
  }

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
    projectDestroyed: async (data, event) => {
      await removeHooks({ kind: 'project', id: data.projectId });
      await removal.projectsGone([data.projectId], event.occurredAt);
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
    groupDestroyed: async (data, event) => {
      // Subgroups and projects go with their group, whether or not their own events follow.
      const root = rootOf(data.ancestorGroupIds, data.groupId)!;
      await removeHooks({ kind: 'group', id: data.groupId }, await store.idsBelow(data.groupId, root));
      await removal.projectsGone(await removal.projectsBelow(data.groupId), event.occurredAt);
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
