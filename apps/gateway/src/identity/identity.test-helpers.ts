import type { Express, RequestHandler } from 'express';
import type { EventEnvelope } from '@gl/contracts';
import { createCounters, type BaseServiceConfig, type ServiceRuntime } from '@gl/service-kit';
import { createTestRuntime, listen, type TestRuntime } from '@gl/testing';
import { createGatewayApp } from '../app';
import { SERVICES, type ServiceName } from '../routing/route-table';
import { createIdentityModels, identityModelList, type IdentityModels } from './identity.models';
import { createIdentityRouters } from './identity.routers';
import { seedRoot } from './root-seed';
import { createUsersService } from './users.service';

/**
 * Test-only: the real gateway app with its identity catalogue on a test runtime, listening on a loopback
 * port, an HTTP client and small factories that create data through the public API.
 */
export const ROOT_TOKEN = 'glpat-identity-tests-root-0000';
export const EXTERNAL_URL = 'http://gitlab.example.test';

export async function createIdentityTestApp(
  runtime: ServiceRuntime<BaseServiceConfig>,
): Promise<{ app: Express; models: IdentityModels }> {
  const models = createIdentityModels(runtime.connection);
  const all = identityModelList(models);
  for (const model of all) runtime.outbox.register(model);
  await Promise.all(all.map((model) => model.init()));
  const identity = {
    models,
    counters: createCounters(runtime.connection),
    outbox: runtime.outbox,
    externalUrl: EXTERNAL_URL,
  };
  const users = createUsersService(identity);
  await seedRoot(identity, users, { rootToken: ROOT_TOKEN, dataDir: '.data/unused', logger: runtime.logger });
  // Forwarding is not under test: any request that reaches a service proxy shows up as a 599.
  const refuse: RequestHandler = (_req, res) => {
    res.status(599).end();
  };
  const proxies = Object.fromEntries(SERVICES.map((name) => [name, refuse])) as Record<
    ServiceName,
    RequestHandler
  >;
  const app = createGatewayApp({
    logger: runtime.logger,
    metrics: runtime.metrics,
    models,
    externalUrl: EXTERNAL_URL,
    tier: 'ultimate',
    contextSecret: runtime.config.INTERNAL_CONTEXT_SECRET,
    proxies,
    readiness: runtime.readiness,
    identityRouters: createIdentityRouters({ ...identity, users, tier: 'ultimate' }),
  });
  return { app, models };
}

export interface IdentityTestGateway {
  runtime: TestRuntime;
  /** Client for the listening app, root token by default. */
  api: Api;
  /** Stops the listener, then the runtime. */
  close(): Promise<void>;
}

/** A fresh test runtime named after the suite, the identity test app on it, listening on a loopback port. */
export async function startIdentityTestGateway(service: string): Promise<IdentityTestGateway> {
  const runtime = await createTestRuntime(service);
  const { app } = await createIdentityTestApp(runtime);
  const server = await listen(app);
  return {
    runtime,
    api: apiClient(server.url),
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null for an empty body. */
  body: unknown;
  text: string;
}

export interface CallOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Api = (method: string, path: string, options?: CallOptions) => Promise<ApiResponse>;

/** Calls `/api/v4<path>` with the root token unless another (or none, `token: null`) is given. */
export function apiClient(baseUrl: string): Api {
  return async (method, path, options = {}) => {
    const token = options.token === undefined ? ROOT_TOKEN : options.token;
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (token) headers['PRIVATE-TOKEN'] = token;
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(`${baseUrl}/api/v4${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      body: text ? (JSON.parse(text) as unknown) : null,
    };
  };
}

/** Narrows a JSON body for property checks in tests. */
export function asRecord(body: unknown): Record<string, unknown> {
  return body as Record<string, unknown>;
}

export function asList(body: unknown): Record<string, unknown>[] {
  return body as Record<string, unknown>[];
}

let sequence = 0;
export function unique(prefix: string): string {
  sequence += 1;
  return `${prefix}${sequence}${Math.random().toString(36).slice(2, 6)}`;
}

export interface TestUser {
  id: number;
  username: string;
  token: string;
}

function expectStatus(res: ApiResponse, status: number, what: string): void {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
}

/** A user made by root through POST /users, with a personal access token of the given scopes. */
export async function createUser(
  api: Api,
  overrides: { username?: string; admin?: boolean; scopes?: string[]; canCreateGroup?: boolean } = {},
): Promise<TestUser> {
  const username = overrides.username ?? unique('user');
  const created = await api('POST', '/users', {
    body: {
      username,
      name: `User ${username}`,
      email: `${username}@example.com`,
      password: 'secret-password',
      admin: overrides.admin ?? false,
      ...(overrides.canCreateGroup === undefined ? {} : { can_create_group: overrides.canCreateGroup }),
    },
  });
  expectStatus(created, 201, 'create user');
  const id = asRecord(created.body).id as number;
  const token = await createToken(api, id, overrides.scopes ?? ['api']);
  return { id, username, token };
}

export async function createToken(api: Api, userId: number, scopes: string[]): Promise<string> {
  const res = await api('POST', `/users/${userId}/personal_access_tokens`, {
    body: { name: 'test', scopes },
  });
  expectStatus(res, 201, 'create token');
  return asRecord(res.body).token as string;
}

export interface TestNamespace {
  id: number;
  path: string;
  full_path: string;
}

export async function createGroup(
  api: Api,
  token: string,
  overrides: { path?: string; parent_id?: number; visibility?: string; name?: string } = {},
): Promise<TestNamespace> {
  const path = overrides.path ?? unique('grp');
  const res = await api('POST', '/groups', {
    token,
    body: { name: overrides.name ?? path, path, ...overrides },
  });
  expectStatus(res, 201, 'create group');
  return res.body as TestNamespace;
}

export interface TestProject {
  id: number;
  path: string;
  path_with_namespace: string;
}

export async function createProject(
  api: Api,
  token: string,
  overrides: { path?: string; namespace_id?: number; visibility?: string } = {},
): Promise<TestProject> {
  const path = overrides.path ?? unique('proj');
  const res = await api('POST', '/projects', { token, body: { path, ...overrides } });
  expectStatus(res, 201, 'create project');
  return res.body as TestProject;
}

export async function addMember(
  api: Api,
  source: 'groups' | 'projects',
  sourceId: number,
  userId: number,
  accessLevel: number,
  token = ROOT_TOKEN,
): Promise<void> {
  const res = await api('POST', `/${source}/${sourceId}/members`, {
    token,
    body: { user_id: userId, access_level: accessLevel },
  });
  expectStatus(res, 201, 'add member');
}

interface OutboxRow {
  state: string;
  createdAt: Date;
  /** The relay keeps the envelope as JSON text (older rows: as a document). */
  payload?: string;
  envelope?: EventEnvelope;
}

/** Publishes everything pending and returns the published envelopes of one type, oldest first. */
export async function publishedEvents(
  runtime: ServiceRuntime<BaseServiceConfig>,
  type: string,
): Promise<EventEnvelope[]> {
  await runtime.outbox.drain();
  const rows = await runtime.connection
    .collection<OutboxRow>('outbox')
    .find({ state: 'published' })
    .sort({ createdAt: 1 })
    .toArray();
  return rows
    .map((row) => (row.payload === undefined ? row.envelope! : (JSON.parse(row.payload) as EventEnvelope)))
    .filter((envelope) => envelope.type === type);
}
