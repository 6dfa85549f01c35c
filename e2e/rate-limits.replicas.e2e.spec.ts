import type { InfraHandle } from '@gl/infra';
import type { RunningStack } from '@gl/launcher';
import { unique } from './e2e.helpers';
import { startOwnStack } from './own-stack';

/**
 * GitLab's API rate limits at two gateway processes (a stack of its own, with two gateways on one
 * database): a user's requests, and an address's anonymous ones, are counted once whichever gateway
 * answers them, so the limit holds for the whole deployment, not per process (GitLab's Rack::Attack keeps
 * its counts in Redis for the same reason).
 */
const ROOT_TOKEN = 'glpat-rate-limit-root-token-0000000';
const USER_LIMIT = 6;
const ANONYMOUS_LIMIT = 4;

describe('rate limits across gateway replicas', () => {
  let infra: InfraHandle;
  let stack: RunningStack;

  beforeAll(async () => {
    ({ infra, stack } = await startOwnStack('ratelimit', ROOT_TOKEN, {
      gateways: 2,
      extraEnv: {
        THROTTLE_AUTHENTICATED_API_ENABLED: 'true',
        THROTTLE_AUTHENTICATED_API_REQUESTS_PER_PERIOD: String(USER_LIMIT),
        THROTTLE_AUTHENTICATED_API_PERIOD_IN_SECONDS: '3600',
        THROTTLE_UNAUTHENTICATED_API_ENABLED: 'true',
        THROTTLE_UNAUTHENTICATED_API_REQUESTS_PER_PERIOD: String(ANONYMOUS_LIMIT),
        THROTTLE_UNAUTHENTICATED_API_PERIOD_IN_SECONDS: '3600',
      },
    }));
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await infra?.stop();
  });

  /** Request i goes to gateway i mod 2. */
  const call = (i: number, path: string, init: RequestInit = {}) =>
    fetch(`${stack.gatewayUrls[i % 2]}/api/v4${path}`, init);

  async function userToken(): Promise<string> {
    const root = { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' };
    const name = unique('limited');
    const user = await call(0, '/users', {
      method: 'POST',
      headers: root,
      body: JSON.stringify({
        username: name,
        name,
        email: `${name}@example.com`,
        password: 'Passw0rd-long-1',
      }),
    });
    expect(user.status).toBe(201);
    const { id } = (await user.json()) as { id: number };
    const token = await call(1, `/users/${id}/personal_access_tokens`, {
      method: 'POST',
      headers: root,
      body: JSON.stringify({ name: 'limited', scopes: ['api'] }),
    });
    expect(token.status).toBe(201);
    return ((await token.json()) as { token: string }).token;
  }

  it('When a user’s requests alternate between the gateways, then the limit counts them all', async () => {
    expect(stack.gatewayUrls).toHaveLength(2);
    const token = await userToken();
    const remaining: (string | null)[] = [];
    for (let i = 0; i < USER_LIMIT; i++) {
      const res = await call(i, '/user', { headers: { 'PRIVATE-TOKEN': token } });
      expect(res.status).toBe(200);
      remaining.push(res.headers.get('ratelimit-remaining'));
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    // Each gateway answered only three: a count per process would let both of these through.
    for (const i of [0, 1]) {
      const refused = await call(i, '/user', { headers: { 'PRIVATE-TOKEN': token } });
      expect(refused.status).toBe(429);
      expect(await refused.text()).toBe('Retry later\n');
      expect(refused.headers.get('ratelimit-name')).toBe('throttle_authenticated_api');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('When anonymous requests from one address alternate between the gateways, then they share a limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < ANONYMOUS_LIMIT + 2; i++) statuses.push((await call(i, '/projects')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
