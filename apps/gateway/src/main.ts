import { createCounters, runService } from '@gl/service-kit';
import { createGatewayApp } from './app';
import { gatewayConfigSchema } from './config';
import { createIdentityModels, identityModelList } from './identity/identity.models';
import { seedRoot } from './identity/root-seed';
import { createUsersService } from './identity/users.service';
import { createIdentityRouters } from './identity/identity.routers';
import { createServiceProxy } from './routing/proxy';
import { servicesReady } from './routing/readiness';
import type { ServiceName } from './routing/route-table';

void runService({
  name: 'gateway',
  database: 'gl_gateway',
  configSchema: gatewayConfigSchema,
  async createApp(runtime) {
    const { config, logger, connection, outbox } = runtime;
    const models = createIdentityModels(connection, { cacheTtlMs: config.IDENTITY_CACHE_TTL_MS });
    for (const model of identityModelList(models)) outbox.register(model);
    await Promise.all(identityModelList(models).map((model) => model.init()));
    const identity = {
      models,
      counters: createCounters(connection),
      outbox,
      externalUrl: config.GITLAB_EXTERNAL_URL,
    };
    const users = createUsersService(identity);
    await seedRoot(identity, users, {
      rootToken: config.GITLAB_ROOT_TOKEN,
      dataDir: config.DATA_DIR,
      logger,
    });

    const upstreams: Record<ServiceName, string> = {
      boards: config.BOARDS_URL,
      discussions: config.DISCUSSIONS_URL,
      alerts: config.ALERTS_URL,
      notifications: config.NOTIFICATIONS_URL,
      events: config.EVENTS_URL,
      registry: config.REGISTRY_URL,
    };
    const proxies = Object.fromEntries(
      Object.entries(upstreams).map(([name, url]) => [name, createServiceProxy(url, logger)]),
    ) as Record<ServiceName, ReturnType<typeof createServiceProxy>>;

    const app = createGatewayApp({
      logger,
      metrics: runtime.metrics,
      models,
      externalUrl: config.GITLAB_EXTERNAL_URL,
      tier: config.GITLAB_TIER,
      contextSecret: config.INTERNAL_CONTEXT_SECRET,
      proxies,
      readiness: async () => ({ ...(await runtime.readiness()), ...(await servicesReady(upstreams)) }),
      identityRouters: createIdentityRouters({ ...identity, users, tier: config.GITLAB_TIER }),
    });
    return { app };
  },
});
