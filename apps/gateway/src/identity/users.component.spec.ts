import {
  EVENT_TYPES,
  emailEntity,
  personalAccessTokenWithTokenEntity,
  userBasicEntity,
  userDetailsWithAdminEntity,
  userEntity,
  userEventData,
  userPublicEntity,
  userWithAdminEntity,
} from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord, unique } from '../testing/identity.api';

describe('identity: users and personal access tokens', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-users' });

  describe('POST /users', () => {
    it('When root creates a user, then 201 answers the admin view and user.created is published', async () => {
      const username = unique('alice');
      const res = await api('POST', '/users', {
        body: {
          username,
          name: 'Alice',
          email: `${username}@example.com`,
          password: 'password123',
          bio: 'hi',
        },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('content-type')).toBe('application/json');
      const user = userWithAdminEntity.parse(res.body);
      expect(user).toMatchObject({
        username,
        name: 'Alice',
        email: `${username}@example.com`,
        is_admin: false,
        bio: 'hi',
      });

      const events = await published(EVENT_TYPES.identity.userCreated);
      const event = events.find((e) => e.data.userId === user.id);
      expect(event).toMatchObject({ producer: 'gateway', actor: { id: 1, username: 'root' } });
      expect(userEventData.parse(event!.data)).toMatchObject({ username, isAdmin: false, emails: [] });
    });

    it('When a user is created with admin=true, then is_admin is true', async () => {
      const username = unique('boss');
      const res = await api('POST', '/users', {
        body: { username, name: 'Boss', email: `${username}@example.com`, reset_password: true, admin: true },
      });
      expect(res.status).toBe(201);
      expect(asRecord(res.body).is_admin).toBe(true);
    });

    it('When a non-admin creates a user, then 403', async () => {
      const user = await make.user();
      const res = await api('POST', '/users', {
        token: user.token,
        body: {
          username: unique('x'),
          name: 'X',
          email: `${unique('x')}@example.com`,
          password: 'password123',
        },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });

    it('When there is no token or a bad one, then 401', async () => {
      const body = {
        username: unique('x'),
        name: 'X',
        email: `${unique('x')}@example.com`,
        password: 'password123',
      };
      const none = await api('POST', '/users', { token: null, body });
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ message: '401 Unauthorized' });
      const bad = await api('POST', '/users', { token: 'glpat-not-a-real-token', body });
      expect(bad.status).toBe(401);
    });

    it('When the e-mail or the username is taken, then 409 with GitLab message', async () => {
      const existing = await make.user();
      const email = await api('POST', '/users', {
        body: {
          username: unique('y'),
          name: 'Y',
          email: `${existing.username.toUpperCase()}@example.com`,
          password: 'password123',
        },
      });
      expect(email.status).toBe(409);
      expect(email.body).toEqual({ message: 'Email has already been taken' });
      const username = await api('POST', '/users', {
        body: {
          username: existing.username,
          name: 'Y',
          email: `${unique('y')}@example.com`,
          password: 'password123',
        },
      });
      expect(username.status).toBe(409);
      expect(username.body).toEqual({ message: 'Username has already been taken' });
    });

    it('When parameters are missing, then 400 lists them in Grape order', async () => {
      const res = await api('POST', '/users', { body: {} });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error:
          'email is missing, password, reset_password, force_random_password are missing, at least one parameter must be provided, name is missing, username is missing',
      });
    });

    it('When the password is too short or the e-mail malformed, then 400 with model errors', async () => {
      const res = await api('POST', '/users', {
        body: { username: unique('z'), name: 'Z', email: 'not-an-email', password: 'short' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: { email: ['is invalid'], password: ['is too short (minimum is 8 characters)'] },
      });
    });
  });

  describe('GET /user and GET /users', () => {
    it('When a user reads /user with a read_user token, then the public view includes the e-mail', async () => {
      const user = await make.user({ scopes: ['read_user'] });
      const res = await api('GET', '/user', { token: user.token });
      expect(res.status).toBe(200);
      const me = userPublicEntity.strict().parse(res.body);
      expect(me).toMatchObject({
        id: user.id,
        email: `${user.username}@example.com`,
        can_create_group: true,
      });
    });

    it('When root reads /user, then is_admin is shown', async () => {
      const res = await api('GET', '/user');
      expect(userWithAdminEntity.parse(res.body)).toMatchObject({ id: 1, username: 'root', is_admin: true });
    });

    it('When /user is called without a token, then 401', async () => {
      const res = await api('GET', '/user', { token: null });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: '401 Unauthorized' });
    });

    it('When a read_user token is used on a write, then 403 insufficient_scope', async () => {
      const user = await make.user({ scopes: ['read_user'] });
      const res = await api('POST', '/projects', { token: user.token, body: { name: 'nope' } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: 'api',
      });
    });

    it('When users are listed with per_page, then GitLab pagination headers are set and newest come first', async () => {
      await make.user();
      await make.user();
      const res = await api('GET', '/users?per_page=2');
      expect(res.status).toBe(200);
      const total = Number(res.headers.get('x-total'));
      expect(total).toBeGreaterThanOrEqual(3);
      expect(res.headers.get('x-per-page')).toBe('2');
      expect(res.headers.get('x-page')).toBe('1');
      expect(res.headers.get('x-next-page')).toBe('2');
      expect(res.headers.get('x-prev-page')).toBe('');
      expect(res.headers.get('x-total-pages')).toBe(String(Math.ceil(total / 2)));
      expect(res.headers.get('link')).toContain('rel="next"');
      expect(res.headers.get('link')).toContain('per_page=2');
      const ids = asList(res.body).map((u) => u.id as number);
      expect(ids).toEqual([...ids].sort((a, b) => b - a));
      userWithAdminEntity.parse(asList(res.body)[0]);
    });

    it('When a regular user filters by username, then one basic user comes back without private fields', async () => {
      const viewer = await make.user();
      const other = await make.user();
      const res = await api('GET', `/users?username=${other.username.toUpperCase()}`, {
        token: viewer.token,
      });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      const found = userBasicEntity.strict().parse(asList(res.body)[0]);
      expect(found).toMatchObject({ id: other.id, username: other.username, locked: false, state: 'active' });
    });

    it('When users are searched, then name and username match case-insensitively', async () => {
      const target = await make.user({ username: unique('Searchable') });
      const res = await api('GET', `/users?search=${target.username.slice(0, 10).toLowerCase()}`);
      expect(asList(res.body).map((u) => u.id)).toContain(target.id);
    });

    it('When anonymous lists users without a username, then 403; with a username, then it works', async () => {
      const denied = await api('GET', '/users', { token: null });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ message: '403 Forbidden - Not authorized to access /api/v4/users' });
      const allowed = await api('GET', '/users?username=root', { token: null });
      expect(allowed.status).toBe(200);
      expect(asList(allowed.body)[0]).toMatchObject({ username: 'root' });
    });
  });

  describe('GET /users/:id', () => {
    it('When a user reads another user, then the User entity comes back without the e-mail', async () => {
      const viewer = await make.user({ scopes: ['read_user'] });
      const other = await make.user();
      const res = await api('GET', `/users/${other.id}`, { token: viewer.token });
      expect(res.status).toBe(200);
      expect(userEntity.strict().parse(res.body)).toMatchObject({ id: other.id, username: other.username });
    });

    it('When an admin reads a user, then the details include is_admin and highest_role', async () => {
      const other = await make.user();
      const res = await api('GET', `/users/${other.id}`);
      expect(userDetailsWithAdminEntity.parse(res.body)).toMatchObject({
        id: other.id,
        is_admin: false,
        highest_role: 0,
      });
    });

    it('When the user does not exist, then 404 User Not Found', async () => {
      const res = await api('GET', '/users/999999');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 User Not Found' });
    });

    it('When the id is not numeric, then the route does not exist', async () => {
      const res = await api('GET', '/users/root');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: '404 Not Found' });
    });
  });

  describe('POST /users/:id/personal_access_tokens', () => {
    it('When root issues a token, then 201 shows it once and it authenticates the user', async () => {
      const user = await make.user();
      const res = await api('POST', `/users/${user.id}/personal_access_tokens`, {
        body: { name: 'ci', scopes: ['read_api', 'read_user'], expires_at: '2099-01-31' },
      });
      expect(res.status).toBe(201);
      const token = personalAccessTokenWithTokenEntity.parse(res.body);
      expect(token).toMatchObject({
        name: 'ci',
        scopes: ['read_api', 'read_user'],
        user_id: user.id,
        expires_at: '2099-01-31',
        active: true,
        revoked: false,
      });
      const me = await api('GET', '/user', { token: token.token });
      expect(asRecord(me.body).id).toBe(user.id);
    });

    it('When no expiry is given, then the token expires after a year as GitLab enforces', async () => {
      const user = await make.user();
      const res = await api('POST', `/users/${user.id}/personal_access_tokens`, {
        body: { name: 'x', scopes: 'api' },
      });
      expect(res.status).toBe(201);
      const expected = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
      expect(asRecord(res.body)).toMatchObject({ scopes: ['api'], expires_at: expected });
    });

    it('When a scope is unknown or parameters are missing, then 400 in Grape form', async () => {
      const user = await make.user();
      const bad = await api('POST', `/users/${user.id}/personal_access_tokens`, {
        body: { name: 'x', scopes: ['root'] },
      });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ error: 'scopes does not have a valid value' });
      const missing = await api('POST', `/users/${user.id}/personal_access_tokens`, { body: {} });
      expect(missing.body).toEqual({ error: 'name is missing, scopes is missing' });
    });

    it('When a non-admin asks, then 403 before any validation; unknown user, then 404', async () => {
      const user = await make.user();
      const denied = await api('POST', `/users/${user.id}/personal_access_tokens`, {
        token: user.token,
        body: {},
      });
      expect(denied.status).toBe(403);
      const unknown = await api('POST', '/users/987654/personal_access_tokens', {
        body: { name: 'x', scopes: ['api'] },
      });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ message: '404 User Not Found' });
    });

    it('When an expired token is used, then 401 invalid_token', async () => {
      const user = await make.user();
      const res = await api('POST', `/users/${user.id}/personal_access_tokens`, {
        body: { name: 'old', scopes: ['api'], expires_at: '2000-01-01' },
      });
      const expired = await api('GET', '/user', { token: asRecord(res.body).token as string });
      expect(expired.status).toBe(401);
      expect(asRecord(expired.body).error).toBe('invalid_token');
    });
  });

  describe('e-mail addresses', () => {
    it('When root adds a secondary e-mail, then the user lists both and user.updated carries it', async () => {
      const user = await make.user();
      const secondary = `${user.username}-alt@example.com`;
      const added = await api('POST', `/users/${user.id}/emails`, {
        body: { email: secondary, skip_confirmation: true },
      });
      expect(added.status).toBe(201);
      expect(emailEntity.parse(added.body)).toMatchObject({ email: secondary });

      const readToken = await make.token(user.id, ['read_user']);
      const mine = await api('GET', '/user/emails', { token: readToken });
      expect(mine.status).toBe(200);
      expect(asList(mine.body).map((e) => e.email)).toEqual([`${user.username}@example.com`, secondary]);

      const events = await published(EVENT_TYPES.identity.userUpdated);
      expect(events.find((e) => e.data.userId === user.id)?.data.emails).toEqual([secondary]);
    });

    it('When the address belongs to someone, then 400 has already been taken; a non-admin gets 403', async () => {
      const user = await make.user();
      const other = await make.user();
      const taken = await api('POST', `/users/${user.id}/emails`, {
        body: { email: `${other.username}@example.com` },
      });
      expect(taken.status).toBe(400);
      expect(taken.body).toEqual({ message: { email: ['has already been taken'] } });
      const denied = await api('POST', `/users/${user.id}/emails`, {
        token: user.token,
        body: { email: 'a@b.c' },
      });
      expect(denied.status).toBe(403);
    });
  });
});
