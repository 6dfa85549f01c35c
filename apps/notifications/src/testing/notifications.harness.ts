import type { EventEnvelope, InternalContext, NamespaceContext, Tier } from '@gl/contracts';
import { createEvent, type Subscription } from '@gl/service-kit';
import {
  createTestRuntime,
  listen,
  signedContextHeader,
  testNamespace,
  testPrincipal,
  type TestRuntime,
  type TestServer,
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

export interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

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
  return identityEvent(type, {
    userId,
    username: `user${userId}`,
    name: `User ${userId}`,
    state: 'active',
    email,
    emails,
    isAdmin: false,
  });
}

export function groupEvent(type: string, groupId: number, ancestorGroupIds: number[] = []): EventEnvelope {
  return identityEvent(type, {
    groupId,
    name: `g${groupId}`,
    path: `g${groupId}`,
    fullPath: `g${groupId}`,
    parentId: ancestorGroupIds.at(-1) ?? null,
    ancestorGroupIds,
    visibility: 'public',
  });
}

export function projectEvent(
  type: string,
  projectId: number,
  ancestorGroupIds: number[] = [],
): EventEnvelope {
  return identityEvent(type, {
    projectId,
    name: `p${projectId}`,
    path: `p${projectId}`,
    fullPath: `g/p${projectId}`,
    namespaceId: ancestorGroupIds.at(-1) ?? 1,
    ancestorGroupIds,
    visibility: 'public',
  });
}

export async function startNotificationsHarness(): Promise<NotificationsHarness> {
  const runtime = await createTestRuntime('notifications');
  const instance = createNotificationsApp(runtime);
  const server: TestServer = await listen(instance.app);
  const subscription = instance.subscriptions![0]!;
  return {
    runtime,
    settings: instance.settings,
    subscription,
    async call(method, path, options = {}) {
      const as = options.as === undefined ? 2 : options.as;
      const context: Partial<InternalContext> = {
        principal: as === null ? null : testPrincipal({ id: as }),
        namespace: options.ns ?? null,
        tier: options.tier ?? 'ultimate',
      };
      const headers: Record<string, string> = signedContextHeader(context);
      let body: string | undefined;
      if (typeof options.body === 'string') {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = options.body;
      } else if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
      const response = await fetch(`${server.url}/api/v4${path}`, { method, headers, body });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as unknown) : null,
        headers: response.headers,
      };
    },
    deliver: (event) => subscription.handle(event),
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}
