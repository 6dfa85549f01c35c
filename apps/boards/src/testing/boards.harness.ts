import type { EventEnvelope, InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import { EVENT_TYPES } from '@gl/contracts';
import {
  createTestRuntime,
  listen,
  signedContextHeader,
  testNamespace,
  testPrincipal,
  type TestRuntime,
} from '@gl/testing';
import { createBoardsApp } from '../app';

export const ROOT = testPrincipal({ id: 1, username: 'root', name: 'Administrator', isAdmin: true });
export const OWNER = testPrincipal({ id: 2, username: 'owner', name: 'Owner' });
export const DEVELOPER = testPrincipal({ id: 3, username: 'dev', name: 'Developer' });
export const GUEST = testPrincipal({ id: 4, username: 'guest', name: 'Guest' });
export const STRANGER = testPrincipal({ id: 5, username: 'stranger', name: 'Stranger' });
export const MAINTAINER = testPrincipal({ id: 6, username: 'maint', name: 'Maintainer' });
export const REPORTER = testPrincipal({ id: 7, username: 'rep', name: 'Reporter' });

const LEVELS: Record<number, number> = { 1: 0, 2: 50, 3: 30, 4: 10, 5: 0, 6: 40, 7: 20 };

let nextNamespaceId = 1000;

export function groupNamespace(overrides: Partial<NamespaceContext> = {}): NamespaceContext {
  const id = overrides.id ?? nextNamespaceId++;
  return testNamespace({
    kind: 'group',
    id,
    name: `Group ${id}`,
    path: `group-${id}`,
    fullPath: `group-${id}`,
    fullName: `Group ${id}`,
    webUrl: `http://localhost/groups/group-${id}`,
    visibility: 'private',
    ...overrides,
  });
}

export interface CallOptions {
  as?: Principal | null;
  ns?: NamespaceContext;
  tier?: InternalContext['tier'];
  json?: unknown;
  query?: Record<string, string>;
}

export interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface BoardsHarness {
  runtime: TestRuntime;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Makes a user known to the service, as the identity events would. */
  addUser(principal: Principal): Promise<void>;
  /** Events stored with milestones and not yet relayed (plus relayed ones kept in the outbox). */
  events(): Promise<EventEnvelope[]>;
  close(): Promise<void>;
}

export async function startBoardsHarness(): Promise<BoardsHarness> {
  const runtime = await createTestRuntime('boards');
  const instance = createBoardsApp(runtime);
  const server = await listen(instance.app);
  return {
    runtime,
    async call(method, path, options = {}) {
      const principal = options.as === undefined ? OWNER : options.as;
      const ns = options.ns;
      const namespace = ns ? { ...ns, accessLevel: principal ? (LEVELS[principal.id] ?? 0) : 0 } : null;
      const headers: Record<string, string> = signedContextHeader({
        principal,
        namespace,
        tier: options.tier ?? 'ultimate',
      });
      let body: string | undefined;
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.json);
      }
      const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
      const response = await fetch(`${server.url}/api/v4${path}${query}`, { method, headers, body });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as unknown) : null,
        headers: response.headers,
      };
    },
    async addUser(principal) {
      const subscription = instance.subscriptions![0]!;
      await subscription.handle({
        id: `00000000-0000-4000-8000-${String(principal.id).padStart(12, '0')}`,
        type: EVENT_TYPES.identity.userCreated,
        version: 1,
        occurredAt: new Date().toISOString(),
        producer: 'gateway',
        correlationId: null,
        actor: null,
        projectId: null,
        groupId: null,
        data: {
          userId: principal.id,
          username: principal.username,
          name: principal.name,
          state: 'active',
          email: principal.email,
          emails: [principal.email],
          isAdmin: principal.isAdmin,
        },
      });
    },
    async events() {
      const events: EventEnvelope[] = [];
      const docs = await runtime.connection
        .collection('milestones')
        .find({ _outbox: { $exists: true } })
        .toArray();
      for (const doc of docs) {
        for (const raw of (doc._outbox as string[] | undefined) ?? [])
          events.push(JSON.parse(raw) as EventEnvelope);
      }
      const entries = await runtime.connection.collection('outbox').find({}).toArray();
      for (const entry of entries) events.push(JSON.parse(entry.payload as string) as EventEnvelope);
      return events;
    },
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}
