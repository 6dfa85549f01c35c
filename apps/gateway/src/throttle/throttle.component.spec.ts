import { useHarness } from '@gl/testing';
import { startGatewayHarness } from '../testing/gateway.harness';
import { makeUser } from '../testing/identity.fixtures';
import { createThrottleStore } from './throttle.store';

/**
 * GitLab's API rate limits (Rack::Attack throttle_authenticated_api / throttle_unauthenticated_api,
 * Gitlab::RackAttack.throttled_response_headers): counted per user or per client address in fixed windows,
 * 429 "Retry later" past the limit with GitLab's headers; here every counted answer carries them.
 */
describe('API rate limits', () => {
  const h = useHarness(() =>
    startGatewayHarness({
      name: 'throttle',
      throttle: {
        authenticated: { name: 'throttle_authenticated_api', limit: 3, periodSeconds: 3600 },
        unauthenticated: { name: 'throttle_unauthenticated_api', limit: 2, periodSeconds: 60 },
      },
    }),
  );

  const headersOf = (res: Response) =>
    Object.fromEntries(
      ['ratelimit-name', 'ratelimit-limit', 'ratelimit-observed', 'ratelimit-remaining'].map((name) => [
        name,
        res.headers.get(name),
      ]),
    );

  it('When a user passes the limit, then 429 "Retry later" with GitLab’s headers, and another user is not held', async () => {
    const user = await makeUser(h.models);
    const other = await makeUser(h.models);
    const seen: Record<string, string | null>[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await h.call('/api/v4/user', { token: user.token });
      expect(res.status).toBe(200);
      seen.push(headersOf(res));
    }
    expect(seen.map((s) => s['ratelimit-remaining'])).toEqual(['2', '1', '0']);
    // 3 an hour is 0.05 a minute: GitLab rounds the per-minute limit up.
    expect(seen[0]).toMatchObject({ 'ratelimit-name': 'throttle_authenticated_api', 'ratelimit-limit': '1' });

    const refused = await h.call('/api/v4/user', { token: user.token });
    expect(refused.status).toBe(429);
    expect(await refused.text()).toBe('Retry later\n');
    expect(refused.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(headersOf(refused)).toMatchObject({ 'ratelimit-observed': '4', 'ratelimit-remaining': '0' });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    const reset = Number(refused.headers.get('ratelimit-reset'));
    expect(reset % 3600).toBe(0);
    expect(refused.headers.get('ratelimit-resettime')).toBe(new Date(reset * 1000).toUTCString());

    expect((await h.call('/api/v4/user', { token: other.token })).status).toBe(200);
  });

  it('When anonymous callers pass their limit, then 429 by address; a bad token counts as anonymous', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) statuses.push((await h.call('/api/v4/projects', { token: null })).status);
    statuses.push((await h.call('/api/v4/projects', { token: 'glpat-nobody-0000000000' })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const named = await h.call('/api/v4/projects', { token: null });
    expect(named.headers.get('ratelimit-name')).toBe('throttle_unauthenticated_api');
    expect(Number(named.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('When requests are not API requests, then they are neither counted nor limited', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await h.call('/-/health', { token: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-name')).toBeNull();
    }
  });

  it('When two gateway replicas count one caller, then they share one count', async () => {
    const one = createThrottleStore(h.runtime.connection);
    const two = createThrottleStore(h.runtime.connection);
    const ends = new Date(Date.now() + 60_000);
    const key = `throttle_authenticated_api:1:user:${Date.now()}`;
    const counts = await Promise.all([one, two, one, two].map((store) => store.increment(key, ends)));
    expect(counts.sort()).toEqual([1, 2, 3, 4]);
  });
});
