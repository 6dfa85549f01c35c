import { z } from 'zod';
import { tier } from '@gl/contracts';
import { baseServiceConfig, DEFAULT_SHARED_TTL_MS } from '@gl/service-kit';
import { DEFAULT_EXPIRED_MEMBERS_SWEEP_MS } from './identity/expired-members';
import { upstreamUrls } from './routing/upstreams';
import { throttleConfigSchema } from './throttle/throttle.settings';

/** Gateway settings; one instance setting (GITLAB_TIER) selects the feature tier for every service. */
export const gatewayConfigSchema = baseServiceConfig.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  MONGO_DB: z.string().default('gl_gateway'),
  GITLAB_EXTERNAL_URL: z
    .string()
    .url()
    .default('http://localhost:8080')
    .transform((url) => url.replace(/\/+$/, '')),
  GITLAB_TIER: tier.default('ultimate'),
  /** Root's personal access token; generated and written under DATA_DIR when unset. */
  GITLAB_ROOT_TOKEN: z.string().min(20).optional(),
  DATA_DIR: z.string().default('.data/dev'),
  /** How long token, user, namespace and membership lookups are reused; another replica's writes show after it. */
  IDENTITY_CACHE_TTL_MS: z.coerce.number().int().min(0).default(5_000),
  /**
   * How long they are reused while the gateway replicas announce their identity writes to each other on the
   * bus (service-kit's peer-flushes.ts); the TTL above applies whenever the bus is away. 0: no announcements.
   */
  IDENTITY_CACHE_SHARED_TTL_MS: z.coerce.number().int().min(0).default(DEFAULT_SHARED_TTL_MS),
  /**
   * How often expired memberships are removed (identity/expired-members.ts); GitLab's worker is daily.
   * At least a second, at most what a Node timer holds (about 24.8 days).
   */
  EXPIRED_MEMBERS_SWEEP_INTERVAL_MS: z.coerce
    .number()
    .int()
    .min(1_000)
    .max(2_147_483_647)
    .default(DEFAULT_EXPIRED_MEMBERS_SWEEP_MS),
  /** Each service's URL, or its replicas' URLs separated by commas; requests are spread round-robin. */
  BOARDS_URL: upstreamUrls,
  DISCUSSIONS_URL: upstreamUrls,
  ALERTS_URL: upstreamUrls,
  NOTIFICATIONS_URL: upstreamUrls,
  EVENTS_URL: upstreamUrls,
  REGISTRY_URL: upstreamUrls,
  HOOKS_URL: upstreamUrls,
  ...throttleConfigSchema.shape,
});
