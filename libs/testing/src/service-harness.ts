import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import type { Connection } from 'mongoose';
import type { EventEnvelope, InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import type { BaseServiceConfig } from '@gl/service-kit';
import { listen, signedContextHeader, testNamespace, testPrincipal, type TestServer } from './http';
import { createTestRuntime, type TestRuntime } from './runtime';

/** The principals most component tests call services as (ids 1..7). */
export const ROOT = testPrincipal({ id: 1, username: 'root', name: 'Administrator', isAdmin: true });
export const OWNER = testPrincipal({ id: 2, username: 'owner', name: 'Owner' });
export const DEVELOPER = testPrincipal({ id: 3, username: 'dev', name: 'Developer' });
export const GUEST = testPrincipal({ id: 4, username: 'guest', name: 'Guest' });
export const STRANGER = testPrincipal({ id: 5, username: 'stranger', name: 'Stranger' });
export const MAINTAINER = testPrincipal({ id: 6, username: 'maint', name: 'Maintainer' });
export const REPORTER = testPrincipal({ id: 7, username: 'rep', name: 'Reporter' });

/** The access level each of the principals above has in the namespaces a test calls with, by user id. */
export const PRINCIPAL_LEVELS: Readonly<Record<number, number>> = {
  1: 0,
  2: 50,
  3: 30,
  4: 10,
  5: 0,
  6: 40,
  7: 20,
};

export interface NamespaceFactoryOptions {
  /** The first id handed out when a test does not pass one (groups and projects share the counter). */
  firstId?: number;
  /** Defaults applied to every project namespace before the test's overrides. */
  project?: Partial<NamespaceContext>;
}

export interface NamespaceFactory {
  groupNamespace(overrides?: Partial<NamespaceContext>): NamespaceContext;
  projectNamespace(overrides?: Partial<NamespaceContext>): NamespaceContext;
}

/** Group/project namespaces with fresh ids, as the gateway would resolve them. */
export function namespaceFactory(options: NamespaceFactoryOptions = {}): NamespaceFactory {
  let nextId = options.firstId ?? 1000;
  return {
    groupNamespace(overrides = {}) {
      const id = overrides.id ?? nextId++;
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
    },
    projectNamespace(overrides = {}) {
      const id = overrides.id ?? nextId++;
      return testNamespace({
        kind: 'project',
        id,
        name: `Project ${id}`,
        path: `project-${id}`,
        fullPath: `group/project-${id}`,
        fullName: `Group / Project ${id}`,
        webUrl: `http://localhost/group/project-${id}`,
        visibility: 'private',
        ...options.project,
        ...overrides,
      });
    },
  };
}

export interface CallOptions {
  /** The caller (default: the harness's default principal); null calls without a principal. */
  as?: Principal | null;
  ns?: NamespaceContext | null;
  /** Overrides the access level the signed namespace carries (default: the principal's level). */
  level?: number;
  tier?: InternalContext['tier'];
  json?: unknown;
  form?: Record<string, string>;
  multipart?: Record<string, string>;
  headers?: Record<string, string>;
  /** A raw body, sent as is unless json/form/multipart is given. */
  body?: string;
  query?: Record<string, string>;
}

export interface Reply {
  status: number;
  body: unknown;
  text: string;
  headers: Headers;
}

export interface CallerDefaults {
  /** The principal calls are made as when `as` is not given. */
  principal: Principal | null;
  /**
   * Access levels by user id, signed into the namespace (0 for unknown users and anonymous calls).
   * null passes the namespace through with the access level it carries.
   */
  levels?: Readonly<Record<number, number>> | null;
  /** The highest access level signed into a namespace. */
  maxLevel?: number;
  /** Keeps a reply body that is not JSON as its text instead of throwing. */
  lenientJson?: boolean;
}

export type Call = (method: string, path: string, options?: CallOptions) => Promise<Reply>;

/** Calls the service under `url`'s `/api/v4` with a signed internal context and parses the reply. */
export function createCaller(url: string, defaults: CallerDefaults): Call {
  const levels = defaults.levels === undefined ? PRINCIPAL_LEVELS : defaults.levels;
  return async (method, path, options = {}) => {
    const principal = options.as === undefined ? defaults.principal : options.as;
    let namespace: NamespaceContext | null = options.ns ?? null;
    if (namespace && levels) {
      const level = options.level ?? (principal ? (levels[principal.id] ?? 0) : 0);
      namespace = {
        ...namespace,
        accessLevel: defaults.maxLevel === undefined ? level : Math.min(level, defaults.maxLevel),
      };
    }
    const headers: Record<string, string> = {
      ...signedContextHeader({ principal, namespace, tier: options.tier ?? 'ultimate' }),
      ...options.headers,
    };
    let body: string | FormData | undefined = options.body;
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
    const query = options.query ? `?${new URLSearchParams(options.query).toString()}` : '';
    const response = await fetch(`${url}/api/v4${path}${query}`, { method, headers, body });
    return toReply(response, defaults.lenientJson ?? false);
  };
}

/** Reads a fetch response into a Reply; with `lenient`, a body that is not JSON is kept as text. */
export async function toReply(response: Response, lenient = true): Promise<Reply> {
  const text = await response.text();
  let body: unknown = null;
  if (lenient) {
    try {
      body = text ? (JSON.parse(text) as unknown) : null;
    } catch {
      body = text;
    }
  } else {
    body = text ? (JSON.parse(text) as unknown) : null;
  }
  return { status: response.status, body, text, headers: response.headers };
}

export interface ServiceHarnessOptions<I extends { app: Express }, C extends BaseServiceConfig> {
  service: string;
  config?: Omit<C, keyof BaseServiceConfig>;
  createApp(runtime: TestRuntime<C>): I;
  caller?: Partial<CallerDefaults>;
}

/** What every service's harness offers; service harnesses extend it with their own helpers. */
export interface ServiceHarnessBase<C extends BaseServiceConfig = BaseServiceConfig> {
  runtime: TestRuntime<C>;
  call: Call;
  close(): Promise<void>;
}

export interface ServiceHarness<
  I extends { app: Express },
  C extends BaseServiceConfig,
> extends ServiceHarnessBase<C> {
  instance: I;
  server: TestServer;
}

/** A service's app on the test runtime, listening on a loopback port, with a signed-context caller. */
export async function startServiceHarness<
  I extends { app: Express },
  C extends BaseServiceConfig = BaseServiceConfig,
>(options: ServiceHarnessOptions<I, C>): Promise<ServiceHarness<I, C>> {
  const runtime = await createTestRuntime<C>(options.service, options.config);
  const instance = options.createApp(runtime);
  const server = await listen(instance.app);
  return {
    runtime,
    instance,
    server,
    call: createCaller(server.url, { principal: OWNER, ...options.caller }),
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}

/**
 * Events written with documents of `collections` (not yet relayed) followed by those in the outbox
 * collection; the relay does not run in component tests.
 */
export async function outboxEvents(connection: Connection, collections: string[]): Promise<EventEnvelope[]> {
  const events: EventEnvelope[] = [];
  for (const name of collections) {
    const docs = await connection
      .collection(name)
      .find({ _outbox: { $exists: true } })
      .toArray();
    for (const doc of docs) {
      for (const raw of (doc._outbox as string[] | undefined) ?? [])
        events.push(JSON.parse(raw) as EventEnvelope);
    }
  }
  const entries = await connection.collection('outbox').find({}).toArray();
  for (const entry of entries) events.push(JSON.parse(entry.payload as string) as EventEnvelope);
  return events;
}

/** An event as the gateway publishes it (no actor, project or group), for feeding a service's consumers. */
export function gatewayEvent(
  type: string,
  data: Record<string, unknown>,
  id: string = randomUUID(),
): EventEnvelope {
  return {
    id,
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'gateway',
    correlationId: null,
    actor: null,
    projectId: null,
    groupId: null,
    data,
  };
}
