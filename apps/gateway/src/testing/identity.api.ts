import type { EventEnvelope } from '@gl/contracts';
import type { BaseServiceConfig, ServiceRuntime } from '@gl/service-kit';

/**
 * Identity data made through the public API (the way a GitLab client would), for the identity endpoints'
 * own specs; identity.fixtures.ts writes models directly for specs that only need the data to exist.
 */
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

/** Calls `/api/v4<path>` with `defaultToken` unless another (or none, `token: null`) is given. */
export function apiClient(baseUrl: string, defaultToken: string): Api {
  return async (method, path, options = {}) => {
    const token = options.token === undefined ? defaultToken : options.token;
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

export interface IdentityFactories {
  /** A user made by root through POST /users, with a personal access token of the given scopes. */
  user(overrides?: {
    username?: string;
    admin?: boolean;
    scopes?: string[];
    canCreateGroup?: boolean;
  }): Promise<TestUser>;
  token(userId: number, scopes: string[]): Promise<string>;
  group(
    token: string,
    overrides?: { path?: string; parent_id?: number; visibility?: string; name?: string },
  ): Promise<TestNamespace>;
  project(
    token: string,
    overrides?: { path?: string; namespace_id?: number; visibility?: string },
  ): Promise<TestProject>;
  /** POST /:source/:id/members as `token` (the client's default token, root, when not given). */
  member(
    source: 'groups' | 'projects',
    sourceId: number,
    userId: number,
    accessLevel: number,
    token?: string,
  ): Promise<void>;
}

export interface TestNamespace {
  id: number;
  path: string;
  full_path: string;
}

export interface TestProject {
  id: number;
  path: string;
  path_with_namespace: string;
}

/** Factories that make identity data through `api`, each failing loudly when GitLab would not answer 201. */
export function identityFactories(api: Api): IdentityFactories {
  const token: IdentityFactories['token'] = async (userId, scopes) => {
    const res = await api('POST', `/users/${userId}/personal_access_tokens`, {
      body: { name: 'test', scopes },
    });
    expectStatus(res, 201, 'create token');
    return asRecord(res.body).token as string;
  };
  return {
    token,
    async user(overrides = {}) {
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
      return { id, username, token: await token(id, overrides.scopes ?? ['api']) };
    },
    async group(as, overrides = {}) {
      const path = overrides.path ?? unique('grp');
      const res = await api('POST', '/groups', {
        token: as,
        body: { name: overrides.name ?? path, path, ...overrides },
      });
      expectStatus(res, 201, 'create group');
      return res.body as TestNamespace;
    },
    async project(as, overrides = {}) {
      const path = overrides.path ?? unique('proj');
      const res = await api('POST', '/projects', { token: as, body: { path, ...overrides } });
      expectStatus(res, 201, 'create project');
      return res.body as TestProject;
    },
    async member(source, sourceId, userId, accessLevel, as) {
      const res = await api('POST', `/${source}/${sourceId}/members`, {
        token: as,
        body: { user_id: userId, access_level: accessLevel },
      });
      expectStatus(res, 201, 'add member');
    },
  };
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
