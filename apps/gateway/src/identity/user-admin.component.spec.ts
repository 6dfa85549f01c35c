import { EVENT_TYPES, membershipEntity, userDestroyedEventData, userWithAdminEntity } from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord, unique } from '../testing/identity.api';

describe('identity: PUT and DELETE /users/:id, user projects and memberships', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-user-admin' });

  describe('PUT /users/:id', () => {
    it('When root sets the bio and profile fields, then 200 with them in UserWithAdmin and in GET /users/:id', async () => {
      const user = await make.user();
      const res = await api('PUT', `/users/${user.id}`, {
        body: {
          bio: 'Writes tests',
          location: 'Lisbon',
          organization: 'ACME',
          job_title: 'Engineer',
          website_url: 'https://example.com',
          pronouns: 'they/them',
          twitter: 'tw',
          note: 'vip',
          name: 'Renamed',
          can_create_group: false,
        },
      });
      expect(res.status).toBe(200);
      const body = userWithAdminEntity.parse(res.body);
      expect(body).toMatchObject({
        bio: 'Writes tests',
        location: 'Lisbon',
        organization: 'ACME',
        job_title: 'Engineer',
        work_information: 'Engineer at ACME',
        website_url: 'https://example.com',
        pronouns: 'they/them',
        twitter: 'tw',
        note: 'vip',
        name: 'Renamed',
        can_create_group: false,
      });
      const shown = asRecord((await api('GET', `/users/${user.id}`, { token: user.token })).body);
      expect(shown).toMatchObject({ bio: 'Writes tests', location: 'Lisbon', name: 'Renamed' });
      expect(shown).not.toHaveProperty('note');
    });

    it('When the username changes, then the personal namespace and its projects move with it', async () => {
      const user = await make.user();
      const project = await make.project(user.token, { path: 'tool' });
      const username = unique('renamed');
      const res = await api('PUT', `/users/${user.id}`, { body: { username } });
      expect(asRecord(res.body).username).toBe(username);
      const moved = await api('GET', `/projects/${encodeURIComponent(`${username}/tool`)}`, {
        token: user.token,
      });
      expect(asRecord(moved.body).id).toBe(project.id);
      const events = await published(EVENT_TYPES.identity.projectUpdated);
      expect(
        events.some((e) => e.data.projectId === project.id && e.data.fullPath === `${username}/tool`),
      ).toBe(true);
    });

    it('When the e-mail changes without skip_reconfirmation, then it waits for confirmation; with it, it applies', async () => {
      const user = await make.user();
      const before = asRecord((await api('GET', `/users/${user.id}`)).body).email;
      const address = `${unique('new')}@example.com`;
      const pending = await api('PUT', `/users/${user.id}`, { body: { email: address } });
      expect(asRecord(pending.body).email).toBe(before);
      const applied = await api('PUT', `/users/${user.id}`, {
        body: { email: address, skip_reconfirmation: true },
      });
      expect(asRecord(applied.body).email).toBe(address);
    });

    it("When another user's e-mail or username is given, then 409; invalid values, then 400 with the model errors", async () => {
      const user = await make.user();
      const other = await make.user();
      expect(
        await api('PUT', `/users/${user.id}`, { body: { email: `${other.username}@example.com` } }),
      ).toMatchObject({
        status: 409,
        body: { message: 'Email has already been taken' },
      });
      expect(await api('PUT', `/users/${user.id}`, { body: { username: other.username } })).toMatchObject({
        status: 409,
        body: { message: 'Username has already been taken' },
      });
      const invalid = await api('PUT', `/users/${user.id}`, {
        body: { bio: 'x'.repeat(256), public_email: 'someone@else.example', projects_limit: -1 },
      });
      expect(invalid.status).toBe(400);
      expect(asRecord(invalid.body).message).toMatchObject({
        bio: ['is too long (maximum is 255 characters)'],
        public_email: ['is not an email you own'],
        projects_limit: ['must be greater than or equal to 0'],
      });
    });

    it('When a non-admin edits, then 403; an unknown user, 404; no token, 401', async () => {
      const user = await make.user();
      expect((await api('PUT', `/users/${user.id}`, { token: user.token, body: { bio: 'x' } })).status).toBe(
        403,
      );
      expect(await api('PUT', '/users/999999', { body: { bio: 'x' } })).toMatchObject({
        status: 404,
        body: { message: '404 User Not Found' },
      });
      expect((await api('PUT', `/users/${user.id}`, { token: null, body: { bio: 'x' } })).status).toBe(401);
    });
  });

  describe('DELETE /users/:id', () => {
    it('When root deletes a user, then 204, their token, personal projects and memberships go, and user.destroyed is published', async () => {
      const owner = await make.user();
      const user = await make.user();
      const group = await make.group(owner.token);
      await make.member('groups', group.id, user.id, 30, owner.token);
      const project = await make.project(user.token, { path: 'mine' });

      const res = await api('DELETE', `/users/${user.id}`);
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect((await api('GET', `/users/${user.id}`)).status).toBe(404);
      expect((await api('GET', `/projects/${project.id}`)).status).toBe(404);
      expect(
        (await api('GET', `/groups/${group.id}/members/${user.id}`, { token: owner.token })).status,
      ).toBe(404);
      expect((await api('GET', '/user', { token: user.token })).status).toBe(401);

      const destroyed = (await published(EVENT_TYPES.identity.userDestroyed)).find(
        (e) => e.data.userId === user.id,
      );
      expect(userDestroyedEventData.parse(destroyed!.data)).toEqual({
        userId: user.id,
        username: user.username,
        hardDelete: false,
      });
      // The username is free again.
      expect((await make.user({ username: user.username })).username).toBe(user.username);
    });

    it('When the user is the only Owner of a group, then 409 unless hard_delete, which deletes the group', async () => {
      const user = await make.user();
      const group = await make.group(user.token);
      expect(await api('DELETE', `/users/${user.id}`)).toMatchObject({
        status: 409,
        body: { message: 'User cannot be removed while is the sole-owner of a group' },
      });
      expect((await api('DELETE', `/users/${user.id}?hard_delete=true`)).status).toBe(204);
      expect((await api('GET', `/groups/${group.id}`)).status).toBe(404);
    });

    it('When a non-admin deletes, then 403; an unknown user, 404', async () => {
      const user = await make.user();
      expect((await api('DELETE', `/users/${user.id}`, { token: user.token })).status).toBe(403);
      expect((await api('DELETE', '/users/999999')).status).toBe(404);
    });
  });

  describe('GET /users/:user_id/projects and /memberships', () => {
    it("When listing a user's projects by id or username, then only their visible personal projects, paginated", async () => {
      const user = await make.user();
      const viewer = await make.user();
      await make.project(user.token, { path: 'pub', visibility: 'public' });
      await make.project(user.token, { path: 'priv', visibility: 'private' });
      await make.project(user.token, { path: 'pub2', visibility: 'public' });

      const seen = await api('GET', `/users/${user.username}/projects?per_page=1`, { token: viewer.token });
      expect(seen.status).toBe(200);
      expect(seen.headers.get('x-total')).toBe('2');
      expect(seen.headers.get('x-next-page')).toBe('2');
      const all = await api('GET', `/users/${user.id}/projects`);
      expect(
        asList(all.body)
          .map((p) => p.path)
          .sort(),
      ).toEqual(['priv', 'pub', 'pub2']);
      const anonymous = await api('GET', `/users/${user.id}/projects`, { token: null });
      expect(asList(anonymous.body)).toHaveLength(2);
      expect(await api('GET', '/users/no-such-user-here/projects')).toMatchObject({
        status: 404,
        body: { message: '404 User Not Found' },
      });
    });

    it("When root lists a user's memberships, then each with source name and type, filtered by type", async () => {
      const owner = await make.user();
      const user = await make.user();
      const group = await make.group(owner.token);
      const project = await make.project(owner.token, { path: 'memb' });
      await make.member('groups', group.id, user.id, 30, owner.token);
      await make.member('projects', project.id, user.id, 20, owner.token);

      const res = await api('GET', `/users/${user.id}/memberships`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe('2');
      const rows = asList(res.body).map((row) => membershipEntity.parse(row));
      expect(rows).toEqual([
        { source_id: group.id, source_name: group.path, source_type: 'Namespace', access_level: 30 },
        { source_id: project.id, source_name: project.path, source_type: 'Project', access_level: 20 },
      ]);
      const projects = await api('GET', `/users/${user.id}/memberships?type=Project`);
      expect(asList(projects.body).map((r) => r.source_type)).toEqual(['Project']);
      expect((await api('GET', `/users/${user.id}/memberships?type=Group`)).status).toBe(400);
      expect((await api('GET', `/users/${user.id}/memberships`, { token: user.token })).status).toBe(403);
      expect((await api('GET', '/users/999999/memberships')).status).toBe(404);
    });
  });
});
