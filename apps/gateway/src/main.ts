import { IDENTITY_VERSION_KEY, runService, sharePeerFlushes } from '@gl/service-kit';
import { createVersionedReads } from './routing/versioned-reads';
import { createGatewayApp } from './app';
import { gatewayConfigSchema } from './config';
import { createExpiredMembersSweep } from './identity/expired-members';
import { seedRoot } from './identity/root-seed';
import { createIdentityRouters } from './identity/identity.routers';
import { openIdentity } from './identity/identity.setup';
import { createServiceProxy } from './routing/proxy';
import { servicesReady } from './routing/readiness';
import type { ServiceName } from './routing/route-table';
import type { Upstreams } from './routing/upstreams';
import { GATEWAY_MIGRATIONS } from './migrations';
import { throttleSettings } from './throttle/throttle.settings';
import { createThrottleStore } from './throttle/throttle.store';

/** Where the gateway replicas announce their identity writes to each other's caches. */
const IDENTITY_FLUSH_SUBJECT = 'cache.gateway.identity.flush';

void runService({
  name: 'gateway',
  consumerVersionKey: IDENTITY_VERSION_KEY,
  database: 'gl_gateway',
  migrations: GATEWAY_MIGRATIONS,
  configSchema: gatewayConfigSchema,
  async createApp(runtime) {
    const { config, logger } = runtime;
    const identity = await openIdentity(runtime, {
      externalUrl: config.GITLAB_EXTERNAL_URL,
      cacheTtlMs: config.IDENTITY_CACHE_TTL_MS,
    });
    const peers =
      config.IDENTITY_CACHE_SHARED_TTL_MS > 0
        ? sharePeerFlushes(
            identity.models.cache,
            runtime.bus,
            IDENTITY_FLUSH_SUBJECT,
            logger,
            config.IDENTITY_CACHE_SHARED_TTL_MS,
          )
        : null;
    await seedRoot(identity, identity.users, {
      rootToken: config.GITLAB_ROOT_TOKEN,
      dataDir: config.DATA_DIR,
      logger,
    });

    const upstreams: Upstreams = {
      boards: config.BOARDS_URL,
      discussions: config.DISCUSSIONS_URL,
      alerts: config.ALERTS_URL,
      notifications: config.NOTIFICATIONS_URL,
      events: config.EVENTS_URL,
      registry: config.REGISTRY_URL,
      hooks: config.HOOKS_URL,
    };
    const proxies = Object.fromEntries(
      Object.entries(upstreams).map(([name, urls]) => [name, createServiceProxy(urls, logger)]),
    ) as Record<ServiceName, ReturnType<typeof createServiceProxy>>;

    const throttles = throttleSettings(config);
    const throttled = throttles.authenticated !== null || throttles.unauthenticated !== null;
    const app = createGatewayApp({
      logger,
      metrics: runtime.metrics,
      stores: identity.stores,
      externalUrl: config.GITLAB_EXTERNAL_URL,
      tier: config.GITLAB_TIER,
      contextSecret: config.INTERNAL_CONTEXT_SECRET,
      proxies,
      versions: {
        reads: createVersionedReads(runtime.versions, await runtime.versions.follow(logger)),
        bumps: runtime.versions,
      },
      readiness: async () => ({ ...(await runtime.readiness()), ...(await servicesReady(upstreams)) }),
      identityRouters: createIdentityRouters({ ...identity, tier: config.GITLAB_TIER }),
      ...(throttled && {
        throttle: { settings: throttles, store: createThrottleStore(runtime.connection) },
      }),
    });
    const expiredMembers = createExpiredMembersSweep(identity, logger, {
      intervalMs: config.EXPIRED_MEMBERS_SWEEP_INTERVAL_MS,
    });
    return {
      app,
      start: () => expiredMembers.start(),
      stop: async () => {
        peers?.close();
        await expiredMembers.stop();
        await identity.stores.users.flushUsage();
      },
    };
  },
});
