import { Router, type Express } from 'express';
import {
  collectParams,
  createCounters,
  createLogger,
  createMetrics,
  createServiceHttpApp,
  sendJson,
} from '@gl/service-kit';
import {
  createTestRuntime,
  listen,
  TEST_CONTEXT_SECRET,
  type TestRuntime,
  type TestServer,
} from '@gl/testing';
import type { Tier } from '@gl/contracts';
import { createGatewayApp } from '../app';
import { createIdentityModels, identityModelList, type IdentityModels } from '../identity/identity.models';
import { createIdentityRouters } from '../identity/identity.routers';
import { createUsersService } from '../identity/users.service';
import { seedRoot } from '../identity/root-seed';
import { createServiceProxy } from '../routing/proxy';
import { SERVICES, type ServiceName } from '../routing/route-table';

export const ROOT_TOKEN = 'glpat-root-test-token-000000000000';

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
  call(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/** The real gateway app in-process, on its own test database, forwarding to echo services. */
export async function startGatewayHarness(
  options: { tier?: Tier; downServices?: ServiceName[] } = {},
): Promise<GatewayHarness> {
  const runtime = await createTestRuntime('gateway');
  const models = createIdentityModels(runtime.connection);
  for (const model of identityModelList(models)) runtime.outbox.register(model);
  await Promise.all(identityModelList(models).map((model) => model.init()));
  const externalUrl = 'http://gitlab.example.com';
  const identity = {
    models,
    counters: createCounters(runtime.connection),
    outbox: runtime.outbox,
    externalUrl,
  };
  const users = createUsersService(identity);
  await seedRoot(identity, users, { rootToken: ROOT_TOKEN, dataDir: '/nonexistent', logger: runtime.logger });

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
    models,
    externalUrl,
    tier: options.tier ?? 'ultimate',
    contextSecret: TEST_CONTEXT_SECRET,
    proxies,
    readiness: runtime.readiness,
    identityRouters: createIdentityRouters({ ...identity, users, tier: options.tier ?? 'ultimate' }),
  });
  const server = await listen(app);
  return {
    url: server.url,
    models,
    runtime,
    upstreams,
    call(path, init = {}) {
      const { token, ...rest } = init;
      const headers: Record<string, string> = { ...(rest.headers as Record<string, string>) };
      const chosen = token === undefined ? ROOT_TOKEN : token;
      if (chosen !== null) headers['PRIVATE-TOKEN'] = chosen;
      return fetch(`${server.url}${path}`, { ...rest, headers });
    },
    async close() {
      await server.close();
      for (const upstream of Object.values(upstreams)) await upstream.close();
      await runtime.close();
    },
  };
}
