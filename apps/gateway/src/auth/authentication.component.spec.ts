import { startGatewayHarness, ROOT_TOKEN, type GatewayHarness } from '../testing/gateway.harness';
import { addMember, makeGroup, makeToken, makeUser, type UserFixture } from '../testing/identity.fixtures';

interface Echo {
  service: string;
  ctx: { principal: { id: number; username: string; isAdmin: boolean; scopes: string[] } | null };
}

describe('gateway authentication', () => {
  let gw: GatewayHarness;
  let user: UserFixture;
  let groupPath: string;

  beforeAll(async () => {
    gw = await startGatewayHarness();
    user = await makeUser(gw.models, { username: 'alice' });
    const group = await makeGroup(gw.models, { visibility: 'public' });
    groupPath = `/api/v4/groups/${group._id}/boards`;
    await addMember(gw.models, { kind: 'group', id: group._id }, user.id, 30);
  });
  afterAll(() => gw.close());

  const json = async (response: Response): Promise<unknown> => response.json();

  describe('token sources', () => {
    it('When the token is in PRIVATE-TOKEN, then the principal is forwarded', async () => {
      const response = await gw.call(groupPath, { token: user.token });
      expect(response.status).toBe(200);
      expect(((await json(response)) as Echo).ctx.principal).toMatchObject({
        id: user.id,
        username: 'alice',
      });
    });

    it('When the token is in the private_token query, then it authenticates and is not forwarded', async () => {
      const response = await gw.call(`${groupPath}?private_token=${user.token}&x=1`, { token: null });
      const body = (await json(response)) as Echo & { url: string };
      expect(body.ctx.principal?.id).toBe(user.id);
      expect(body.url).not.toContain('private_token');
      expect(body.url).toContain('x=1');
    });

    it('When the token is a Bearer token, then it authenticates and Authorization is not forwarded', async () => {
      const response = await gw.call(groupPath, {
        token: null,
        headers: { Authorization: `Bearer ${user.token}` },
      });
      const body = (await json(response)) as Echo & {
        headers: { authorization: string | null; privateToken: string | null };
      };
      expect(body.ctx.principal?.id).toBe(user.id);
      expect(body.headers.authorization).toBeNull();
      expect(body.headers.privateToken).toBeNull();
    });
  });

  describe('failures', () => {
    it('When no token is sent to a route that requires one, then 401', async () => {
      const response = await gw.call(groupPath, { token: null });
      expect(response.status).toBe(401);
      expect(await json(response)).toEqual({ message: '401 Unauthorized' });
    });

    it('When an unknown token is sent, then 401 even where anonymous access is allowed', async () => {
      const group = await makeGroup(gw.models, { visibility: 'public' });
      const anonymous = await gw.call(`/api/v4/groups/${group._id}/epics`, { token: null });
      expect(anonymous.status).toBe(200);
      const bad = await gw.call(`/api/v4/groups/${group._id}/epics`, { token: 'glpat-not-a-real-token' });
      expect(bad.status).toBe(401);
      expect(await json(bad)).toEqual({ message: '401 Unauthorized' });
    });

    it.each([
      [
        'expired',
        { expiresAt: '2020-01-01' },
        'Token is expired. You can either do re-authorization or token refresh.',
      ],
      ['revoked', { revoked: true }, 'Token was revoked. You have to re-authorize from the user.'],
    ])(
      "When the token is %s, then 401 invalid_token with GitLab's description",
      async (_state, options, description) => {
        const token = await makeToken(gw.models, user.id, options);
        const response = await gw.call(groupPath, { token });
        expect(response.status).toBe(401);
        expect(await json(response)).toEqual({ error: 'invalid_token', error_description: description });
      },
    );

    it('When a user is blocked, then their token stops on the very next request, cached or not', async () => {
      const blockee = await makeUser(gw.models);
      const group = await makeGroup(gw.models, { visibility: 'public' });
      await addMember(gw.models, { kind: 'group', id: group._id }, blockee.id, 30);
      const path = `/api/v4/groups/${group._id}/boards`;
      expect((await gw.call(path, { token: blockee.token })).status).toBe(200);
      // Any write through the identity models flushes the token and user lookups at once.
      await gw.models.users.updateOne({ _id: blockee.id }, { $set: { state: 'blocked' } });
      // lib/api/api_guard.rb: forbidden!(UserAccessDeniedReason#rejection_message).
      const refused = await gw.call(path, { token: blockee.token });
      expect(refused.status).toBe(403);
      expect(await json(refused)).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
    });

    it('When the token expires today, then it is already expired (GitLab expires at the start of the day)', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const token = await makeToken(gw.models, user.id, { expiresAt: today });
      expect((await gw.call(groupPath, { token })).status).toBe(401);
    });
  });

  describe('scopes', () => {
    it('When a read_api token reads, then it passes; when it writes, then 403 insufficient_scope', async () => {
      const readApi = await makeToken(gw.models, user.id, { scopes: ['read_api'] });
      expect((await gw.call(groupPath, { token: readApi })).status).toBe(200);
      const write = await gw.call(groupPath, { token: readApi, method: 'POST', body: '{}' });
      expect(write.status).toBe(403);
      expect(await json(write)).toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      });
    });

    it('When a read_user token reads events, then it passes; boards, then 403 insufficient_scope', async () => {
      const readUser = await makeToken(gw.models, user.id, { scopes: ['read_user'] });
      const events = await gw.call('/api/v4/events', { token: readUser });
      expect(events.status).toBe(200);
      expect(((await json(events)) as Echo).service).toBe('events');
      const boards = await gw.call(groupPath, { token: readUser });
      expect(boards.status).toBe(403);
      expect(await json(boards)).toMatchObject({ error: 'insufficient_scope', scope: 'api read_api' });
    });
  });

  describe('Sudo', () => {
    it('When an admin token with the sudo scope sends Sudo, then the request runs as that user', async () => {
      const byName = await gw.call(groupPath, { headers: { Sudo: 'alice' } });
      expect(((await json(byName)) as Echo).ctx.principal).toMatchObject({ id: user.id, isAdmin: false });
      const byId = await gw.call(`${groupPath}?sudo=${user.id}`);
      expect(((await json(byId)) as Echo).ctx.principal?.id).toBe(user.id);
    });

    it('When a non-admin sends Sudo, then 403 "Must be admin to use sudo"', async () => {
      const response = await gw.call(groupPath, { token: user.token, headers: { Sudo: 'root' } });
      expect(response.status).toBe(403);
      expect(await json(response)).toEqual({ message: '403 Forbidden - Must be admin to use sudo' });
    });

    it('When an admin token lacks the sudo scope, then 403 insufficient_scope', async () => {
      const apiOnly = await makeToken(gw.models, 1, { scopes: ['api'] });
      const response = await gw.call(groupPath, { token: apiOnly, headers: { Sudo: 'alice' } });
      expect(response.status).toBe(403);
      expect(await json(response)).toMatchObject({ error: 'insufficient_scope', scope: 'sudo' });
    });

    it('When the Sudo user does not exist, then 404 naming it', async () => {
      const response = await gw.call(groupPath, { token: ROOT_TOKEN, headers: { Sudo: 'nobody' } });
      expect(response.status).toBe(404);
      expect(await json(response)).toEqual({ message: "404 User with ID or username 'nobody' Not Found" });
    });
  });

  it('When a token is used, then last_used_at is recorded without flushing the identity cache', async () => {
    const token = await makeToken(gw.models, user.id);
    await gw.call(groupPath, { token });
    const invalidations = gw.models.cache.stats.invalidations;
    const hits = gw.models.cache.stats.hits;
    for (let i = 0; i < 3; i++) expect((await gw.call(groupPath, { token })).status).toBe(200);
    expect(gw.models.cache.stats.invalidations).toBe(invalidations);
    expect(gw.models.cache.stats.hits).toBeGreaterThan(hits);
    await gw.flushUsage();
    const stored = await gw.models.tokens.findOne({ userId: user.id }).sort({ _id: -1 }).lean();
    expect(stored?.lastUsedAt).toBeInstanceOf(Date);
  });

  it('When the token hash is looked up, then the plain token is stored nowhere', async () => {
    const stored = await gw.models.tokens.find({ userId: user.id }).lean();
    expect(stored.length).toBeGreaterThan(0);
    for (const record of stored) {
      expect(record.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(record)).not.toContain(user.token);
    }
  });
});
