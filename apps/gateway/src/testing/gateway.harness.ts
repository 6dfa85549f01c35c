import { Router, type Express } from 'express';
import type { EventEnvelope, Tier } from '@gl/contracts';
import { collectParams, createLogger, createMetrics, createServiceHttpApp, sendJson } from '@gl/service-kit';
import {
  createTestRuntime,
  listen,
  TEST_CONTEXT_SECRET,
  type TestRuntime,
  type TestServer,
} from '@gl/testing';
import { createGatewayApp } from '../app';
import type { IdentityModels } from '../identity/identity.models';
import { createIdentityRouters } from '../identity/identity.routers';
import { openIdentity } from '../identity/identity.setup';
import { seedRoot } from '../identity/root-seed';
import { createServiceProxy } from '../routing/proxy';
import type { ThrottleSettings } from '../throttle/throttle.settings';
import { createThrottleStore } from '../throttle/throttle.store';
import { SERVICES, type ServiceName } from '../routing/route-table';
import {
  apiClient,
  identityFactories,
  publishedEvents,
  type Api,
  type IdentityFactories,
} from './identity.api';

/**
 * The one gateway test harness: the real gateway app (createGatewayApp, wired as main.ts wires it) on its
 * own test database, with the root user seeded, forwarding to echo services.
 */
export const ROOT_TOKEN = 'glpat-root-test-token-000000000000';
export const EXTERNAL_URL = 'http://gitlab.example.test';

/**
 * A stand-in for a real service: the real HTTP shell (so it verifies the gateway's signature exactly as
 * a service does) answering with what it received.
 */
function createEchoService(name: string): Express {
  const echo = Router();
  echo.all('/{*rest}', (req, res) =>
    sendJson(res, 200, {
      service: name,
      method: req.method,
      url: req.originalUrl,
      ctx: req.ctx,
      params: collectParams(req),
      headers: {
        authorization: req.headers.authorization ?? null,
        privateToken: req.headers['private-token'] ?? null,
        requestId: req.headers['x-request-id'] ?? null,
        forwardedHost: req.headers['x-forwarded-host'] ?? null,
      },
    }),
  );
  return createServiceHttpApp({
    name,
    logger: createLogger(name, 'silent'),
    metrics: createMetrics(name),
    contextSecret: TEST_CONTEXT_SECRET,
    readiness: async () => ({ ok: true }),
    apiRouters: [echo],
    rootRouters: [echo],
  });
}

export interface GatewayHarness {
  url: string;
  models: IdentityModels;
  runtime: TestRuntime;
  upstreams: Record<ServiceName, TestServer>;
  /** A raw fetch of `path` (from the root, not /api/v4) with the root token unless another or none is given. */
  call(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** JSON client for /api/v4, root token by default. */
  api: Api;
  /** Publishes everything pending and returns the published envelopes of one type, oldest first. */
  published(type: string): Promise<EventEnvelope[]>;
  /** Writes the tokens' last_used_at and users' last_activity_on that wait to be written together. */
  flushUsage(): Promise<void>;
  close(): Promise<void>;
}

export interface GatewayHarnessOptions {
  /** Names the test runtime (database, bus client); one per suite keeps their data apart in logs. */
  name?: string;
  tier?: Tier;
  /** Services whose proxy points at a closed port (502 Bad Gateway). */
  downServices?: ServiceName[];
  /** API rate limits to enforce (throttle/), counted in the suite's database. */
  throttle?: ThrottleSettings;
}

export async function startGatewayHarness(options: GatewayHarnessOptions = {}): Promise<GatewayHarness> {
  const runtime = await createTestRuntime(options.name ?? 'gateway');
  const tier = options.tier ?? 'ultimate';
  const identity = await openIdentity(runtime, { externalUrl: EXTERNAL_URL });
  await seedRoot(identity, identity.users, {
    rootToken: ROOT_TOKEN,
    dataDir: '/nonexistent',
    logger: runtime.logger,
  });

  const upstreams = {} as Record<ServiceName, TestServer>;
  for (const name of SERVICES) upstreams[name] = await listen(createEchoService(name));
  const proxies = Object.fromEntries(
    SERVICES.map((name) => {
      const target = options.downServices?.includes(name) ? 'http://127.0.0.1:1' : upstreams[name].url;
      return [name, createServiceProxy(target, runtime.logger)];
    }),
  ) as Record<ServiceName, ReturnType<typeof createServiceProxy>>;

  const app = createGatewayApp({
    logger: runtime.logger,
    metrics: runtime.metrics,
    stores: identity.stores,
    externalUrl: EXTERNAL_URL,
    tier,
    contextSecret: TEST_CONTEXT_SECRET,
    proxies,
    readiness: runtime.readiness,
    identityRouters: createIdentityRouters({ ...identity, tier }),
    ...(options.throttle && {
      throttle: { settings: options.throttle, store: createThrottleStore(runtime.connection) },
    }),
  });
  const server = await listen(app);
  return {
    url: server.url,
    models: identity.models,
    runtime,
    upstreams,
    call(path, init = {}) {
      const { token, ...rest } = init;
      const headers: Record<string, string> = { ...(rest.headers as Record<string, string>) };
      const chosen = token === undefined ? ROOT_TOKEN : token;
      if (chosen !== null) headers['PRIVATE-TOKEN'] = chosen;
      return fetch(`${server.url}${path}`, { ...rest, headers });
    },
    api: apiClient(server.url, ROOT_TOKEN),
    published: (type) => publishedEvents(runtime, type),
    flushUsage: () => identity.stores.users.flushUsage(),
    async close() {
      await server.close();
      await identity.stores.users.flushUsage();
      for (const upstream of Object.values(upstreams)) await upstream.close();
      await runtime.close();
    },
  };
}

export interface GatewaySuite {
  /** The running harness; only inside tests and hooks (it starts in the suite's beforeAll). */
  readonly gw: GatewayHarness;
  /** `gw.api`, usable where the suite is declared (it forwards to the harness once started). */
  api: Api;
  /** `gw.published`, likewise. */
  published(type: string): Promise<EventEnvelope[]>;
  /** Identity data made through `api`. */
  make: IdentityFactories;
}

/** Starts the harness before the enclosing describe's tests and closes it after them. */
export function useGatewayHarness(options: GatewayHarnessOptions = {}): GatewaySuite {
  let harness: GatewayHarness | undefined;
  const started = (): GatewayHarness => {
    if (!harness) throw new Error('the gateway harness starts in beforeAll; use it inside tests and hooks');
    return harness;
  };
  beforeAll(async () => {
    harness = await startGatewayHarness(options);
  });
  afterAll(() => harness?.close());
  const api: Api = (method, path, callOptions) => started().api(method, path, callOptions);
  return {
    get gw() {
      return started();
    },
    api,
    published: (type) => started().published(type),
    make: identityFactories(api),
  };
}
