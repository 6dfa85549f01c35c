import type { EventEnvelope, InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import {
  createTestRuntime,
  listen,
  signedContextHeader,
  testNamespace,
  testPrincipal,
  type TestRuntime,
} from '@gl/testing';
import { createDiscussionsApp } from '../app';
import type { ServiceInstance } from '@gl/service-kit';

export const ROOT = testPrincipal({ id: 1, username: 'root', name: 'Administrator', isAdmin: true });
export const OWNER = testPrincipal({ id: 2, username: 'owner', name: 'Owner' });
export const DEVELOPER = testPrincipal({ id: 3, username: 'dev', name: 'Developer' });
export const GUEST = testPrincipal({ id: 4, username: 'guest', name: 'Guest' });
export const STRANGER = testPrincipal({ id: 5, username: 'stranger', name: 'Stranger' });
export const MAINTAINER = testPrincipal({ id: 6, username: 'maint', name: 'Maintainer' });
export const REPORTER = testPrincipal({ id: 7, username: 'rep', name: 'Reporter' });

const LEVELS: Record<number, number> = { 1: 0, 2: 50, 3: 30, 4: 10, 5: 0, 6: 40, 7: 20 };

let nextNamespaceId = 1000;

export function projectNamespace(overrides: Partial<NamespaceContext> = {}): NamespaceContext {
  const id = overrides.id ?? nextNamespaceId++;
  return testNamespace({
    kind: 'project',
    id,
    name: `Project ${id}`,
    path: `project-${id}`,
    fullPath: `group/project-${id}`,
    fullName: `Group / Project ${id}`,
    webUrl: `http://localhost/group/project-${id}`,
    ancestorGroupIds: [10],
    visibility: 'private',
    ...overrides,
  });
}

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
  form?: Record<string, string>;
  multipart?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface DiscussionsHarness {
  runtime: TestRuntime;
  instance: ServiceInstance;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** Events written with the documents and not yet relayed (the relay does not run in component tests). */
  pendingEvents(): Promise<EventEnvelope[]>;
  close(): Promise<void>;
}

export async function startDiscussionsHarness(): Promise<DiscussionsHarness> {
  const runtime = await createTestRuntime('discussions');
  const instance = createDiscussionsApp(runtime);
  const server = await listen(instance.app);
  return {
    runtime,
    instance,
    async call(method, path, options = {}) {
      const principal = options.as === undefined ? OWNER : options.as;
      const ns = options.ns;
      const namespace = ns ? { ...ns, accessLevel: principal ? (LEVELS[principal.id] ?? 0) : 0 } : null;
      const headers: Record<string, string> = signedContextHeader({
        principal,
        namespace,
        tier: options.tier ?? 'ultimate',
      });
      Object.assign(headers, options.headers);
      let body: string | FormData | undefined;
      if (options.json !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.json);
      } else if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        body = new URLSearchParams(options.form).toString();
      } else if (options.multipart) {
        const form = new FormData();
        for (const [key, value] of Object.entries(options.multipart)) form.append(key, value);
        body = form;
      }
      const response = await fetch(`${server.url}/api/v4${path}`, { method, headers, body });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as unknown) : null,
        headers: response.headers,
      };
    },
    async pendingEvents() {
      const events: EventEnvelope[] = [];
      for (const name of ['noteables', 'notes', 'branches']) {
        const docs = await runtime.connection
          .collection(name)
          .find({ _outbox: { $exists: true } })
          .toArray();
        for (const doc of docs) {
          for (const raw of (doc._outbox as string[] | undefined) ?? [])
            events.push(JSON.parse(raw) as EventEnvelope);
        }
      }
      const entries = await runtime.connection.collection('outbox').find({}).toArray();
      for (const entry of entries) events.push(JSON.parse(entry.payload as string) as EventEnvelope);
      return events.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
    },
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}
