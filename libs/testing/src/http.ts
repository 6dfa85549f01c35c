import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import {
  INTERNAL_CONTEXT_HEADER,
  type InternalContext,
  type NamespaceContext,
  type Principal,
} from '@gl/contracts';
import { answerExpectContinue, signContext } from '@gl/service-kit';
import { TEST_CONTEXT_SECRET } from './runtime';

export interface TestServer {
  url: string;
  close(): Promise<void>;
}

/** Listens on an ephemeral loopback port; component tests talk real HTTP to the in-process app. */
export async function listen(app: Express): Promise<TestServer> {
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  // As every process answers it (runService), so that tests see the production edge.
  answerExpectContinue(server);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function testPrincipal(overrides: Partial<Principal> = {}): Principal {
  const id = overrides.id ?? 2;
  const username = overrides.username ?? `user${id}`;
  return {
    id,
    username,
    name: overrides.name ?? `User ${id}`,
    state: 'active',
    avatar_url: null,
    web_url: `http://localhost/${username}`,
    email: `${username}@example.com`,
    isAdmin: false,
    scopes: ['api'],
    ...overrides,
  };
}

export function testNamespace(overrides: Partial<NamespaceContext> = {}): NamespaceContext {
  return {
    kind: 'group',
    id: 10,
    name: 'Group',
    path: 'group',
    fullPath: 'group',
    fullName: 'Group',
    visibility: 'private',
    webUrl: 'http://localhost/groups/group',
    ancestorGroupIds: [],
    accessLevel: 50,
    ...overrides,
  };
}

/** A context as the gateway would sign it, for calling a service directly in component tests. */
export function signedContextHeader(
  context: Partial<InternalContext> = {},
  secret = TEST_CONTEXT_SECRET,
): Record<string, string> {
  const full: InternalContext = {
    v: 1,
    requestId: 'test-request',
    exp: Date.now() + 60_000,
    tier: 'ultimate',
    externalUrl: 'http://localhost',
    principal: testPrincipal(),
    namespace: null,
    ...context,
  };
  return { [INTERNAL_CONTEXT_HEADER]: signContext(secret, full) };
}

export interface RawAnswer {
  status: number;
  contentType: string | undefined;
  body: string;
}

/**
 * One request over node:http, so malformed paths and headers go out byte for byte (fetch re-encodes or
 * refuses them). Large response headers are accepted: paginated Link headers repeat long query strings.
 */
export function rawRequest(
  url: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: new URL(url).port,
        path,
        method: options.method ?? 'GET',
        headers: options.headers,
        maxHeaderSize: 256 * 1024,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: res.headers['content-type'],
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
