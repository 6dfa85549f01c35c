import { TooManyRequestsError } from '../errors';
import { renderError } from '../http/error-handler';
import { createRateLimiter } from './rate-limiter';
import type { WindowCounts } from './window-counts';

/** The shared counts in memory: the keys and windows the limiter asks for. */
function memoryCounts() {
  const counts = new Map<string, number>();
  const expiries = new Map<string, Date>();
  const store: WindowCounts = {
    increment(key, expiresAt) {
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (!expiries.has(key)) expiries.set(key, expiresAt);
      return Promise.resolve(counts.get(key)!);
    },
  };
  return { store, counts, expiries };
}

describe('createRateLimiter (Gitlab::ApplicationRateLimiter fixed windows)', () => {
  const LIMITS = { web_hook_test: { threshold: 2, intervalSeconds: 60 } };

  it('When a scope passes the threshold in one window, then the next request throws 429 with the interval to wait', async () => {
    let now = 120_000; // the start of window 2
    const { store, expiries } = memoryCounts();
    const limiter = createRateLimiter(store, LIMITS, () => now);
    await limiter.check('web_hook_test', ['project:5', 'user:2']);
    await limiter.check('web_hook_test', ['project:5', 'user:2']);
    const refused = limiter.check('web_hook_test', ['project:5', 'user:2']);
    await expect(refused).rejects.toBeInstanceOf(TooManyRequestsError);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 60 });
    expect(expiries.get('web_hook_test:2:project:5:user:2')).toEqual(new Date(180_000));

    // Another user or parent counts apart; the next window starts again.
    await limiter.check('web_hook_test', ['project:5', 'user:3']);
    await limiter.check('web_hook_test', ['project:6', 'user:2']);
    now = 180_000;
    await limiter.check('web_hook_test', ['project:5', 'user:2']);
  });

  it("When the limit throws, then the error renders as GitLab's check_rate_limit! answer", () => {
    expect(renderError(new TooManyRequestsError(60))).toEqual({
      status: 429,
      body: { message: { error: 'This endpoint has been requested too many times. Try again later.' } },
      headers: { 'Retry-After': '60' },
    });
  });
});
