import type { EventEnvelope, NamespaceContext, Tier } from '@gl/contracts';
import { createEvent, type Subscription } from '@gl/service-kit';
import {
  groupEventFields,
  projectEventFields,
  startServiceHarness,
  testNamespace,
  testPrincipal,
  userEventFields,
  type Reply,
  type TestRuntime,
} from '@gl/testing';
import { createNotificationsApp } from '../app';
import type { SettingsService } from '../settings.service';

export interface CallOptions {
  /** The caller's user id (default 2); null calls without a principal. */
  as?: number | null;
  ns?: NamespaceContext | null;
  tier?: Tier;
  /** A JSON body, or a string sent as form data. */
  body?: unknown;
}

export type { Reply } from '@gl/testing';

export interface NotificationsHarness {
  runtime: TestRuntime;
  settings: SettingsService;
  /** The identity consumer as createNotificationsApp returns it. */
  subscription: Subscription;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Runs an event through the identity consumer as the bus would deliver it. */
  deliver(event: EventEnvelope): Promise<void>;
  close(): Promise<void>;
}

export const group = (id: number, ancestorGroupIds: number[] = []): NamespaceContext =>
  testNamespace({ kind: 'group', id, ancestorGroupIds, accessLevel: 0, visibility: 'public' });

export const project = (id: number, ancestorGroupIds: number[] = []): NamespaceContext =>
  testNamespace({ kind: 'project', id, ancestorGroupIds, accessLevel: 0, visibility: 'public' });

export function identityEvent(type: string, data: Record<string, unknown>): EventEnvelope {
  return createEvent({ producer: 'gateway', correlationId: null }, { type, actor: null, data });
}

export function userEvent(type: string, userId: number, email: string, emails: string[] = []): EventEnvelope {
  return identityEvent(type, userEventFields({ id: userId, email, emails }));
}

export function groupEvent(type: string, groupId: number, ancestorGroupIds: number[] = []): EventEnvelope {
  return identityEvent(type, groupEventFields(groupId, { ancestorGroupIds, visibility: 'public' }));
}

export function projectEvent(
  type: string,
  projectId: number,
  ancestorGroupIds: number[] = [],
): EventEnvelope {
  return identityEvent(type, projectEventFields(projectId, { ancestorGroupIds, visibility: 'public' }));
}

export async function startNotificationsHarness(): Promise<NotificationsHarness> {
  const harness = await startServiceHarness({
    service: 'notifications',
    createApp: createNotificationsApp,
    // Namespaces are signed as the test builds them.
    caller: { principal: testPrincipal({ id: 2 }), levels: null },
  });
  const subscription = harness.instance.subscriptions![0]!;
  return {
    runtime: harness.runtime,
    settings: harness.instance.settings,
    subscription,
    async call(method, path, options = {}) {
      const { as, body, ...rest } = options;
      return harness.call(method, path, {
        ...rest,
        as: as === undefined || as === null ? as : testPrincipal({ id: as }),
        ...(typeof body === 'string'
          ? { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }
          : { json: body }),
      });
    },
    deliver: async (event) => {
      await subscription.handle(event);
    },
    close: harness.close,
  };
}
