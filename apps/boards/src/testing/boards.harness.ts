import type { EventEnvelope, NamespaceContext, Principal } from '@gl/contracts';
import { EVENT_TYPES } from '@gl/contracts';
import {
  gatewayEvent,
  namespaceFactory,
  outboxEvents,
  startServiceHarness,
  userEventFields,
  type ServiceHarnessBase,
} from '@gl/testing';
import { createBoardsApp } from '../app';

export const { groupNamespace } = namespaceFactory({ firstId: 1000 });

/**
 * A group and a project in it, as the gateway signs them (the project's group last among its ancestors),
 * from a spec's own namespace ids.
 */
export function projectInGroupOf(
  namespaces: ReturnType<typeof namespaceFactory>,
  overrides: Partial<NamespaceContext> = {},
): { group: NamespaceContext; project: NamespaceContext } {
  const group = namespaces.groupNamespace();
  const project = namespaces.projectNamespace({
    ancestorGroupIds: [group.id],
    fullPath: `${group.path}/p`,
    fullName: `${group.name} / Project`,
    webUrl: `http://localhost/${group.path}/p`,
    ...overrides,
  });
  return { group, project };
}

export interface BoardsHarness extends ServiceHarnessBase {
  /** Makes a user known to the service, as the identity events would. */
  addUser(principal: Principal): Promise<void>;
  /** Events stored with group and project milestones and not yet relayed (plus relayed ones kept in the outbox). */
  events(): Promise<EventEnvelope[]>;
}

export async function startBoardsHarness(): Promise<BoardsHarness> {
  const base = await startServiceHarness({ service: 'boards', createApp: createBoardsApp });
  return {
    ...base,
    async addUser(principal) {
      const subscription = base.instance.subscriptions![0]!;
      await subscription.handle(
        gatewayEvent(
          EVENT_TYPES.identity.userCreated,
          userEventFields({ ...principal, emails: [principal.email] }),
          `00000000-0000-4000-8000-${String(principal.id).padStart(12, '0')}`,
        ),
      );
    },
    events: () => outboxEvents(base.runtime.connection, ['milestones', 'project_milestones']),
  };
}
