import { DURABLES, type EventEnvelope, type MilestoneDefinedData } from '@gl/contracts';
import type { ServiceInstance } from '@gl/service-kit';
import {
  gatewayEvent,
  namespaceFactory,
  outboxEvents,
  startServiceHarness,
  type ServiceHarnessBase,
} from '@gl/testing';
import { createDiscussionsApp } from '../app';

export const { projectNamespace, groupNamespace } = namespaceFactory({
  firstId: 1000,
  project: { ancestorGroupIds: [10] },
});

export interface DiscussionsHarness extends ServiceHarnessBase {
  instance: ServiceInstance;
  /** Events written with the documents and not yet relayed (the relay does not run in component tests). */
  pendingEvents(): Promise<EventEnvelope[]>;
  /**
   * Hands a gateway event to one of the service's bus subscriptions (the identity one unless named), as the
   * bus would deliver it.
   */
  deliver(type: string, data: Record<string, unknown>, durable?: string): Promise<void>;
}

export async function startDiscussionsHarness(): Promise<DiscussionsHarness> {
  const base = await startServiceHarness({ service: 'discussions', createApp: createDiscussionsApp });
  return {
    ...base,
    async deliver(type, data, durable = DURABLES.discussionsIdentity) {
      const subscription = base.instance.subscriptions!.find((s) => s.durable === durable)!;
      await subscription.handle(gatewayEvent(type, data));
    },
    async pendingEvents() {
      const events = await outboxEvents(base.runtime.connection, ['noteables', 'notes', 'branches']);
      return events.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
    },
  };
}

/** A milestone as boards defines it (gl.boards.milestone.defined): active and undated unless `fields` say so. */
export function milestoneDefinition(
  milestoneId: number,
  fields: Partial<MilestoneDefinedData> = {},
): MilestoneDefinedData {
  return {
    milestoneId,
    groupId: 10,
    iid: milestoneId,
    revision: 1,
    title: `m${milestoneId}`,
    state: 'active',
    startDate: null,
    dueDate: null,
    ...fields,
  };
}
