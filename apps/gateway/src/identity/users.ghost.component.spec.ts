import { EVENT_TYPES, userDetailsWithAdminEntity, userEntity } from '@gl/contracts';
import { GHOST_USER, createLogger, runMigrations } from '@gl/service-kit';
import { GATEWAY_MIGRATIONS } from '../migrations';
import { GHOST_BIO } from '../migrations/ghost-user';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord } from '../testing/identity.api';

const logger = createLogger('gateway-ghost-test', 'silent');

/** The Ghost User record the gateway's migration 3 creates (Users::Internal.ghost). */
describe('identity: the Ghost User', () => {
  const suite = useGatewayHarness({ name: 'gateway-identity-ghost' });
  const { api, published, make } = suite;
  const ghostPath = `/users/${GHOST_USER.id}`;

  beforeAll(async () => {
    // The harness wires the app as main.ts does but leaves migrations to runService; run them as it does.
    await runMigrations(suite.gw.runtime.connection, GATEWAY_MIGRATIONS, { logger });
  });

  it('When a user follows a deleted author link to the reserved id, then 200 answers the Ghost User', async () => {
    const reader = await make.user();
    const res = await api('GET', ghostPath, { token: reader.token });
    expect(res.status).toBe(200);
    const ghost = userEntity.parse(res.body);
    expect(ghost).toMatchObject({
      id: GHOST_USER.id,
      username: 'ghost',
      name: 'Ghost User',
      state: 'active',
      locked: false,
      web_url: 'http://gitlab.example.test/ghost',
      bio: GHOST_BIO,
      bot: false,
    });
    expect(asRecord(res.body)).not.toHaveProperty('email');
  });

  it('When an admin reads the Ghost User, then the admin view shows a non-admin with its own namespace', async () => {
    const res = await api('GET', ghostPath);
    expect(res.status).toBe(200);
    const ghost = userDetailsWithAdminEntity.parse(res.body);
    expect(ghost).toMatchObject({
      username: 'ghost',
      email: 'ghost@example.com',
      is_admin: false,
      highest_role: 0,
    });
    const namespace = await api('GET', `/namespaces/${ghost.namespace_id}`);
    expect(namespace.status).toBe(200);
    expect(asRecord(namespace.body)).toMatchObject({ kind: 'user', path: 'ghost', full_path: 'ghost' });
  });

  it('When an anonymous caller asks for the Ghost User, then 403 Not authorized! as for anyone', async () => {
    const res = await api('GET', ghostPath, { token: null });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: '403 Forbidden - Not authorized!' });
  });

  it('When users are listed, then the Ghost User is there unless exclude_internal=true', async () => {
    const reader = await make.user();
    const listed = await api('GET', '/users?username=ghost', { token: reader.token });
    expect(listed.status).toBe(200);
    expect(asList(listed.body).map((u) => u.id)).toEqual([GHOST_USER.id]);

    const anonymous = await api('GET', '/users?username=ghost', { token: null });
    expect(asList(anonymous.body).map((u) => u.id)).toEqual([GHOST_USER.id]);

    const excluded = await api('GET', '/users?username=ghost&exclude_internal=true', { token: reader.token });
    expect(excluded.status).toBe(200);
    expect(asList(excluded.body)).toEqual([]);

    const firstPage = await api('GET', '/users?exclude_internal=true&per_page=100');
    expect(asList(firstPage.body).map((u) => u.id)).not.toContain(GHOST_USER.id);
    expect(firstPage.headers.get('x-total')).toBe(
      String(Number((await api('GET', '/users?per_page=1')).headers.get('x-total')) - 1),
    );
  });

  it('When the Ghost User is created, then it has no password and no token, and no identity event is published', async () => {
    const record = await suite.gw.models.users.findById(GHOST_USER.id).lean();
    expect(record).toMatchObject({ passwordHash: null, isAdmin: false, state: 'active' });
    expect(await suite.gw.models.tokens.countDocuments({ userId: GHOST_USER.id })).toBe(0);
    for (const type of Object.values(EVENT_TYPES.identity)) {
      const events = await published(type);
      expect(events.filter((e) => (e.data as { userId?: number }).userId === GHOST_USER.id)).toEqual([]);
    }
  });

  it('When an admin gives the Ghost User a token, then the token is refused as an internal user (403)', async () => {
    const created = await api('POST', `${ghostPath}/personal_access_tokens`, {
      body: { name: 'ghost', scopes: ['api'] },
    });
    expect(created.status).toBe(201);
    const token = String(asRecord(created.body).token);
    const res = await api('GET', '/user', { token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: '403 Forbidden - This action cannot be performed by internal users',
    });
  });

  /** Everything an admin write could change on the ghost: its record, namespace, route, addresses, tokens. */
  async function ghostSnapshot() {
    const { connection } = suite.gw.runtime;
    return {
      user: await connection.collection('users').findOne({ _id: GHOST_USER.id as never }),
      namespaces: await connection.collection('namespaces').find({ ownerId: GHOST_USER.id }).toArray(),
      routes: await connection
        .collection('routes')
        .find({ _id: 'ghost' as never })
        .toArray(),
      emails: await connection.collection('user_emails').find({ userId: GHOST_USER.id }).toArray(),
      tokens: await connection.collection('personal_access_tokens').find({ userId: GHOST_USER.id }).toArray(),
    };
  }

  async function ghostEvents(): Promise<number> {
    let count = 0;
    for (const type of Object.values(EVENT_TYPES.identity)) {
      count += (await published(type)).filter(
        (e) => (e.data as { userId?: number }).userId === GHOST_USER.id,
      ).length;
    }
    return count;
  }

  it('When an admin blocks the Ghost User, then 403 An internal user cannot be blocked and nothing changes', async () => {
    const before = await ghostSnapshot();
    expect(await api('POST', `${ghostPath}/block`)).toMatchObject({
      status: 403,
      body: { message: 'An internal user cannot be blocked' },
    });
    expect(await ghostSnapshot()).toEqual(before);
    expect(await ghostEvents()).toBe(0);

    // A person is blocked as before.
    const user = await make.user();
    expect(await api('POST', `/users/${user.id}/block`)).toMatchObject({ status: 201, body: true });
  });

  it('When an admin deactivates the Ghost User, then 403 Internal users cannot be deactivated and nothing changes', async () => {
    const before = await ghostSnapshot();
    expect(await api('POST', `${ghostPath}/deactivate`)).toMatchObject({
      status: 403,
      body: { message: 'Internal users cannot be deactivated' },
    });
    expect(await ghostSnapshot()).toEqual(before);
    expect(await ghostEvents()).toBe(0);

    // A dormant person is deactivated as before.
    const user = await make.user();
    expect(await api('POST', `/users/${user.id}/deactivate`)).toMatchObject({ status: 201, body: true });
  });

  it('When an admin unblocks or activates the active Ghost User, then 201 false as for anyone active', async () => {
    const before = await ghostSnapshot();
    expect(await api('POST', `${ghostPath}/unblock`)).toMatchObject({ status: 201, body: false });
    expect(await api('POST', `${ghostPath}/activate`)).toMatchObject({ status: 201, body: false });
    expect(await ghostSnapshot()).toEqual(before);
  });

  it('When a non-admin moderates or deletes the Ghost User, then 403 before the internal-user rules', async () => {
    const user = await make.user();
    for (const action of ['block', 'deactivate']) {
      const res = await api('POST', `${ghostPath}/${action}`, { token: user.token });
      expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    }
    const res = await api('DELETE', ghostPath, { token: user.token });
    expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('When an admin deletes the Ghost User, then 204 as GitLab accepts it, but nothing is removed', async () => {
    const before = await ghostSnapshot();
    for (const query of ['', '?hard_delete=true']) {
      const res = await api('DELETE', `${ghostPath}${query}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
    }
    expect(await ghostSnapshot()).toEqual(before);
    expect(await ghostEvents()).toBe(0);
    expect((await api('GET', ghostPath)).status).toBe(200);
    expect((await api('GET', '/users?username=ghost')).body).toHaveLength(1);

    // A person is deleted as before.
    const user = await make.user();
    expect((await api('DELETE', `/users/${user.id}`)).status).toBe(204);
    expect((await api('GET', `/users/${user.id}`)).status).toBe(404);
  });

  it('When the migration runs again, then nothing is created twice', async () => {
    const { connection } = suite.gw.runtime;
    const step = GATEWAY_MIGRATIONS.find((m) => m.version === 3)!;
    await step.up(connection, logger);
    expect(await runMigrations(connection, GATEWAY_MIGRATIONS, { logger })).toEqual({ applied: [] });
    expect(await connection.collection('users').countDocuments({ usernameLower: 'ghost' })).toBe(1);
    expect(await connection.collection('namespaces').countDocuments({ ownerId: GHOST_USER.id })).toBe(1);
    expect(await connection.collection('user_emails').countDocuments({ userId: GHOST_USER.id })).toBe(1);
  });

  // Last: it edits the ghost. lib/api/users.rb's PUT has no internal-user check and Users::UpdateService no
  // policy check (UserPolicy's :update_user is not asked), so an admin's edit applies as for anyone.
  it('When an admin edits the Ghost User, then 200 as GitLab allows it', async () => {
    const res = await api('PUT', ghostPath, { body: { note: 'kept by the instance' } });
    expect(res.status).toBe(200);
    expect(asRecord(res.body)).toMatchObject({ id: GHOST_USER.id, note: 'kept by the instance' });
    expect((await api('PUT', ghostPath, { body: { note: '' } })).status).toBe(200);
  });
});
