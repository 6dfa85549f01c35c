import { z } from 'zod';

/**
 * GitLab's API rate limits (application settings `throttle_authenticated_api_*` and
 * `throttle_unauthenticated_api_*`, enforced by Rack::Attack in config/initializers/rack_attack.rb and
 * lib/gitlab/rack_attack.rb), as environment variables of the same names; off by default, as on a
 * self-managed GitLab, with its default limits.
 */
const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((value) => value === 'true' || value === '1');
const count = (fallback: number) => z.coerce.number().int().min(1).max(1_000_000_000).default(fallback);

export const throttleConfigSchema = z.object({
  THROTTLE_AUTHENTICATED_API_ENABLED: flag,
  THROTTLE_AUTHENTICATED_API_REQUESTS_PER_PERIOD: count(7200),
  THROTTLE_AUTHENTICATED_API_PERIOD_IN_SECONDS: count(3600),
  THROTTLE_UNAUTHENTICATED_API_ENABLED: flag,
  THROTTLE_UNAUTHENTICATED_API_REQUESTS_PER_PERIOD: count(3600),
  THROTTLE_UNAUTHENTICATED_API_PERIOD_IN_SECONDS: count(3600),
});
type ThrottleConfig = z.infer<typeof throttleConfigSchema>;

/** One throttle: its Rack::Attack name, how many requests a period allows, the period in seconds. */
export interface Throttle {
  name: 'throttle_authenticated_api' | 'throttle_unauthenticated_api';
  limit: number;
  periodSeconds: number;
}

export interface ThrottleSettings {
  authenticated: Throttle | null;
  unauthenticated: Throttle | null;
}

export function throttleSettings(config: ThrottleConfig): ThrottleSettings {
  return {
    authenticated: config.THROTTLE_AUTHENTICATED_API_ENABLED
      ? {
          name: 'throttle_authenticated_api',
          limit: config.THROTTLE_AUTHENTICATED_API_REQUESTS_PER_PERIOD,
          periodSeconds: config.THROTTLE_AUTHENTICATED_API_PERIOD_IN_SECONDS,
        }
      : null,
    unauthenticated: config.THROTTLE_UNAUTHENTICATED_API_ENABLED
      ? {
          name: 'throttle_unauthenticated_api',
          limit: config.THROTTLE_UNAUTHENTICATED_API_REQUESTS_PER_PERIOD,
          periodSeconds: config.THROTTLE_UNAUTHENTICATED_API_PERIOD_IN_SECONDS,
        }
      : null,
  };
}
