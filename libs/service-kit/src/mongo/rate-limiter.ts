import { TooManyRequestsError } from '../errors';
import type { WindowCounts } from './window-counts';

/** A limit of Gitlab::ApplicationRateLimiter.rate_limits (lib/gitlab/application_rate_limiter.rb). */
export interface RateLimit {
  threshold: number;
  intervalSeconds: number;
}

export interface RateLimiter<K extends string> {
  /**
   * `check_rate_limit!(key, scope:)` (lib/api/helpers/rate_limiter.rb): counts this request in the
   * current window of `key` for `scope`, and throws TooManyRequestsError (429, `Retry-After` the
   * interval) once the count passes the threshold.
   */
  check(key: K, scope: (string | number)[]): Promise<void>;
}

/**
 * Gitlab::ApplicationRateLimiter's fixed windows: the window is `now / interval`, and a request is throttled
 * when its count in the window exceeds the threshold (`throttled?` increments first, then compares).
 */
export function createRateLimiter<K extends string>(
  counts: WindowCounts,
  limits: Record<K, RateLimit>,
  now: () => number = Date.now,
): RateLimiter<K> {
  return {
    async check(key, scope) {
      const { threshold, intervalSeconds } = limits[key];
      const window = Math.floor(now() / 1000 / intervalSeconds);
      const expiresAt = new Date((window + 1) * intervalSeconds * 1000);
      const count = await counts.increment(`${key}:${window}:${scope.join(':')}`, expiresAt);
      if (count > threshold) throw new TooManyRequestsError(intervalSeconds);
    },
  };
}
