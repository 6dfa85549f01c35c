import type { EventEnvelope, InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import {
  createTestRuntime,
  listen,
  signedContextHeader,
  testNamespace,
  testPrincipal,
  type TestRuntime,
  type TestServer,
} from '@gl/testing';
import { createAlertsApp, type AlertsConfig } from '../app';

export const ROOT = testPrincipal({ id: 1, username: 'root', name: 'Administrator', isAdmin: true });
export const OWNER = testPrincipal({ id: 2, username: 'owner', name: 'Owner' });
export const DEVELOPER = testPrincipal({ id: 3, username: 'dev', name: 'Developer' });
export const GUEST = testPrincipal({ id: 4, username: 'guest', name: 'Guest' });
export const MAINTAINER = testPrincipal({ id: 6, username: 'maint', name: 'Maintainer' });
export const REPORTER = testPrincipal({ id: 7, username: 'rep', name: 'Reporter' });

const LEVELS: Record<number, number> = { 1: 0, 2: 50, 3: 30, 4: 10, 6: 40, 7: 20 };

let nextProjectId = 5000 + Math.floor(Math.random() * 1000) * 100;

export function projectNamespace(overrides: Partial<NamespaceContext> = {}): NamespaceContext {
  const id = overrides.id ?? nextProjectId++;
  return testNamespace({
    kind: 'project',
    id,
    name: `Project ${id}`,
    path: `project-${id}`,
    fullPath: `group/project-${id}`,
    fullName: `Group / Project ${id}`,
    webUrl: `http://localhost/group/project-${id}`,
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
  text: string;
  headers: Headers;
}

export interface NotifyOptions {
  ns: NamespaceContext;
  token?: string | null;
  /** Raw body text; objects are sent as JSON. */
  body?: unknown;
  tier?: InternalContext['tier'];
  authorization?: string;
}

export interface AlertsHarness {
  runtime: TestRuntime<AlertsConfig>;
  instance: ReturnType<typeof createAlertsApp>;
  server: TestServer;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** POST to a notify path at the service root, as the gateway forwards it. */
  notify(path: string, options: NotifyOptions, server?: TestServer): Promise<Reply>;
  /** Events stored with alerts (pending or relayed). */
  events(): Promise<EventEnvelope[]>;
  close(): Promise<void>;
}

async function toReply(response: Response): Promise<Reply> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    body = text;
  }
  return { status: response.status, body, text, headers: response.headers };
}

export async function startAlertsHarness(config: Partial<AlertsConfig> = {}): Promise<AlertsHarness> {
  const runtime = await createTestRuntime<AlertsConfig>('alerts', config);
  const instance = createAlertsApp(runtime);
  const server = await listen(instance.app);
  return {
    runtime,
    instance,
    server,
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
      return toReply(await fetch(`${server.url}/api/v4${path}${query}`, { method, headers, body }));
    },
    async notify(path, options, target = server) {
      const headers: Record<string, string> = {
        ...signedContextHeader({
          principal: null,
          namespace: { ...options.ns, accessLevel: 0 },
          tier: options.tier ?? 'ultimate',
        }),
        'content-type': 'application/json',
      };
      if (options.authorization) headers.authorization = options.authorization;
      else if (options.token) headers.authorization = `Bearer ${options.token}`;
      const body =
        options.body === undefined
          ? '{}'
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body);
      return toReply(await fetch(`${target.url}${path}`, { method: 'POST', headers, body }));
    },
    async events() {
      const events: EventEnvelope[] = [];
      const docs = await runtime.connection
        .collection('alerts')
        .find({ _outbox: { $exists: true } })
        .toArray();
      for (const doc of docs) {
        for (const raw of (doc._outbox as string[] | undefined) ?? [])
          events.push(JSON.parse(raw) as EventEnvelope);
      }
      const entries = await runtime.connection.collection('outbox').find({}).toArray();
      for (const entry of entries) events.push(JSON.parse(entry.payload as string) as EventEnvelope);
      const seen = new Set<string>();
      return events.filter((e) => !seen.has(e.id) && seen.add(e.id));
    },
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}
