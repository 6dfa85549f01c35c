import { EVENT_TYPES, memberEntity, memberEventData } from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord, type TestNamespace, type TestUser } from '../testing/identity.api';

describe('identity: group and project members', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-members' });
  let owner: TestUser;

  beforeAll(async () => {
    owner = await make.user();
  });

  describe('POST /:source/:id/members', () => {
    it('When an owner adds a member, then 201 with the Member entity and member.added is published', async () => {
      const group = await make.group(owner.token);
      const user = await make.user();
      const res = await api('POST', `/groups/${group.id}/members`, {
        token: owner.token,
        body: { user_id: user.id, access_level: 30, expires_at: '2099-12-31' },
      });
      expect(res.status).toBe(201);
      expect(memberEntity.parse(res.body)).toMatchObject({
        id: user.id,
        username: user.username,
        state: 'active',
        access_level: 30,
        expires_at: '2099-12-31',
        created_by: { id: owner.id },
      });
      const event = (await published(EVENT_TYPES.identity.memberAdded)).find(
        (e) => e.groupId === group.id && e.data.userId === user.id,
      );
      expect(memberEventData.parse(event!.data)).toEqual({
        sourceType: 'group',
        sourceId: group.id,
        userId: user.id,
        accessLevel: 30,
        expiresAt: '2099-12-31',
        revision: expect.any(Number) as number,
      });
    });

    it('When expires_at is sent as null (go-gitlab always does), then it means no expiry; on edit it clears one', async () => {
      const group = await make.group(owner.token);
      const user = await make.user();
      const added = await api('POST', `/groups/${group.id}/members`, {
        token: owner.token,
        body: { user_id: user.id, access_level: 30, expires_at: null },
      });
      expect(added.status).toBe(201);
      expect(memberEntity.parse(added.body).expires_at).toBeNull();
      const dated = await api('PUT', `/groups/${group.id}/members/${user.id}`, {
        token: owner.token,
        body: { access_level: 30, expires_at: '2099-01-31' },
      });
      expect(memberEntity.parse(dated.body).expires_at).toBe('2099-01-31');
      const kept = await api('PUT', `/groups/${group.id}/members/${user.id}`, {
        token: owner.token,
        body: { access_level: 40 },
      });
      expect(memberEntity.parse(kept.body).expires_at).toBe('2099-01-31');
      const cleared = await api('PUT', `/groups/${group.id}/members/${user.id}`, {
        token: owner.token,
        body: { access_level: 40, expires_at: null },
      });
      expect(cleared.status).toBe(200);
      expect(memberEntity.parse(cleared.body).expires_at).toBeNull();
    });

    it('When the user is already a member, then 409 Member already exists', async () => {
      const project = await make.project(owner.token);
      const user = await make.user();
      await make.member('projects', project.id, user.id, 20, owner.token);
      const res = await api('POST', `/projects/${project.id}/members`, {
        token: owner.token,
        body: { user_id: user.id, access_level: 30 },
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ message: 'Member already exists' });
    });

    it('When parameters are invalid, then 400 for every validation error', async () => {
      const group = await make.group(owner.token);
      const user = await make.user();
      const post = (body: unknown) =>
        api('POST', `/groups/${group.id}/members`, { token: owner.token, body });
      expect((await post({ user_id: user.id })).body).toEqual({ error: 'access_level is missing' });
      expect((await post({ user_id: user.id, access_level: 'high' })).body).toEqual({
        error: 'access_level is invalid',
      });
      expect((await post({ access_level: 30 })).body).toEqual({
        error: 'user_id, username are missing, at least one parameter must be provided',
      });
      const level = await post({ user_id: user.id, access_level: 35 });
      expect(level.status).toBe(400);
      expect(level.body).toEqual({ message: { access_level: ['is not included in the list'] } });
      const past = await post({ user_id: user.id, access_level: 30, expires_at: '2001-01-01' });
      expect(past.status).toBe(400);
      expect(past.body).toEqual({ message: { expires_at: ['cannot be a date in the past'] } });
    });

    it('When the user does not exist, then 404 User Not Found; by username it works', async () => {
      const group = await make.group(owner.token);
      const missing = await api('POST', `/groups/${group.id}/members`, {
        token: owner.token,
        body: { user_id: 424242, access_level: 30 },
      });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: '404 User Not Found' });
      const user = await make.user();
      const byName = await api('POST', `/groups/${group.id}/members`, {
        token: owner.token,
        body: { username: user.username, access_level: 10 },
      });
      expect(asRecord(byName.body)).toMatchObject({ id: user.id, access_level: 10 });
    });

    it('When a developer adds someone or a maintainer adds an owner, then 403; an owner may add owners', async () => {
      const group = await make.group(owner.token);
      const developer = await make.user();
      const maintainer = await make.user();
      const newcomer = await make.user();
      await make.member('groups', group.id, developer.id, 30, owner.token);
      await make.member('groups', group.id, maintainer.id, 40, owner.token);
      const add = (token: string, level: number) =>
        api('POST', `/groups/${group.id}/members`, {
          token,
          body: { user_id: newcomer.id, access_level: level },
        });
      expect((await add(developer.token, 10)).status).toBe(403);
      expect((await add(maintainer.token, 50)).status).toBe(403);
      expect((await add(owner.token, 50)).status).toBe(201);
    });

    it('When a subgroup member would get less than they inherit, then 400 naming the inherited role', async () => {
      const parent = await make.group(owner.token, { name: 'Parent Co' });
      const child = await make.group(owner.token, { parent_id: parent.id, path: 'child' });
      const user = await make.user();
      await make.member('groups', parent.id, user.id, 30, owner.token);
      const res = await api('POST', `/groups/${child.id}/members`, {
        token: owner.token,
        body: { user_id: user.id, access_level: 20 },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: {
          access_level: [
            'should be greater than or equal to Developer inherited membership from group Parent Co',
          ],
        },
      });
    });

    it('When there is no token or the source is invisible, then 401 or 404', async () => {
      const group = await make.group(owner.token);
      const stranger = await make.user();
      expect((await api('GET', `/groups/${group.id}/members`, { token: null })).status).toBe(401);
      const hidden = await api('POST', `/groups/${group.id}/members`, {
        token: stranger.token,
        body: { user_id: stranger.id, access_level: 30 },
      });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ message: '404 Group Not Found' });
    });
  });

  describe('listing', () => {
    let parent: TestNamespace;
    let child: TestNamespace;
    let projectId: number;
    let parentMember: TestUser;
    let childMember: TestUser;
    let promoted: TestUser;

    beforeAll(async () => {
      parent = await make.group(owner.token);
      child = await make.group(owner.token, { parent_id: parent.id, path: 'child' });
      projectId = (await make.project(owner.token, { namespace_id: child.id })).id;
      parentMember = await make.user();
      childMember = await make.user();
      promoted = await make.user();
      await make.member('groups', parent.id, parentMember.id, 20, owner.token);
      await make.member('groups', parent.id, promoted.id, 10, owner.token);
      await make.member('groups', child.id, childMember.id, 30, owner.token);
      await make.member('projects', projectId, promoted.id, 40, owner.token);
    });

    it('When direct members are listed, then inherited ones are not included', async () => {
      const res = await api('GET', `/groups/${child.id}/members`, { token: owner.token });
      expect(res.status).toBe(200);
      // The subgroup's creator is its direct Owner; the parent's members are not listed.
      expect(asList(res.body).map((m) => memberEntity.parse(m).id)).toEqual([owner.id, childMember.id]);
    });

    it('When all members of a project are listed, then ancestors count and the highest level wins', async () => {
      const res = await api('GET', `/projects/${projectId}/members/all?per_page=100`, {
        token: parentMember.token,
      });
      expect(res.status).toBe(200);
      const levels = Object.fromEntries(
        asList(res.body).map((m) => [String(m.id), memberEntity.parse(m).access_level]),
      );
      expect(levels).toEqual({
        [String(owner.id)]: 50,
        [String(parentMember.id)]: 20,
        [String(childMember.id)]: 30,
        [String(promoted.id)]: 40,
      });
      expect(res.headers.get('x-total')).toBe('4');
    });

    it('When all members are paged or filtered, then headers and the query filter apply', async () => {
      const page = await api('GET', `/groups/${child.id}/members/all?per_page=2`, { token: owner.token });
      expect(page.headers.get('x-total')).toBe('4');
      expect(page.headers.get('x-next-page')).toBe('2');
      expect(page.body).toHaveLength(2);
      const query = await api('GET', `/groups/${child.id}/members/all?query=${childMember.username}`, {
        token: owner.token,
      });
      expect(asList(query.body).map((m) => m.id)).toEqual([childMember.id]);
    });

    it('When one member is read, then direct and inherited lookups differ; a non-member is 404 Not found', async () => {
      const direct = await api('GET', `/groups/${child.id}/members/${parentMember.id}`, {
        token: owner.token,
      });
      expect(direct.status).toBe(404);
      expect(direct.body).toEqual({ message: '404 Not found' });
      const inherited = await api('GET', `/groups/${child.id}/members/all/${parentMember.id}`, {
        token: owner.token,
      });
      expect(asRecord(inherited.body)).toMatchObject({ id: parentMember.id, access_level: 20 });
      const encoded = encodeURIComponent(`${parent.path}/child`);
      const byPath = await api('GET', `/groups/${encoded}/members/${childMember.id}`, {
        token: parentMember.token,
      });
      expect(asRecord(byPath.body)).toMatchObject({ id: childMember.id, access_level: 30 });
    });
  });

  describe('PUT and DELETE', () => {
    it('When the access level changes, then 200 and member.updated is published', async () => {
      const group = await make.group(owner.token);
      const user = await make.user();
      await make.member('groups', group.id, user.id, 20, owner.token);
      const res = await api('PUT', `/groups/${group.id}/members/${user.id}`, {
        token: owner.token,
        body: { access_level: 40 },
      });
      expect(res.status).toBe(200);
      expect(memberEntity.parse(res.body).access_level).toBe(40);
      const event = (await published(EVENT_TYPES.identity.memberUpdated)).find(
        (e) => e.groupId === group.id && e.data.userId === user.id,
      );
      expect(event?.data.accessLevel).toBe(40);
      const missing = await api('PUT', `/groups/${group.id}/members/${user.id}`, {
        token: owner.token,
        body: {},
      });
      expect(missing.body).toEqual({ error: 'access_level is missing' });
    });

    it('When a member is removed, then 204 and member.removed is published; again, then 404', async () => {
      const project = await make.project(owner.token);
      const user = await make.user();
      await make.member('projects', project.id, user.id, 30, owner.token);
      const res = await api('DELETE', `/projects/${project.id}/members/${user.id}`, {
        token: owner.token,
        body: {},
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const event = (await published(EVENT_TYPES.identity.memberRemoved)).find(
        (e) => e.projectId === project.id && e.data.userId === user.id,
      );
      expect(event).toBeDefined();
      const again = await api('DELETE', `/projects/${project.id}/members/${user.id}`, { token: owner.token });
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ message: '404 Not found' });
    });

    it('When the last owner is removed or demoted, then 403; a member may leave on their own', async () => {
      const group = await make.group(owner.token);
      const leaver = await make.user();
      await make.member('groups', group.id, leaver.id, 10, owner.token);
      expect(
        (await api('DELETE', `/groups/${group.id}/members/${owner.id}`, { token: owner.token })).status,
      ).toBe(403);
      const demote = await api('PUT', `/groups/${group.id}/members/${owner.id}`, {
        token: owner.token,
        body: { access_level: 40 },
      });
      expect(demote.status).toBe(403);
      expect(
        (await api('DELETE', `/groups/${group.id}/members/${leaver.id}`, { token: leaver.token })).status,
      ).toBe(204);
    });

    it('When a group member is removed, then their memberships inside the group go too', async () => {
      const group = await make.group(owner.token);
      const project = await make.project(owner.token, { namespace_id: group.id });
      const user = await make.user();
      await make.member('groups', group.id, user.id, 30, owner.token);
      await make.member('projects', project.id, user.id, 40, owner.token);
      expect(
        (await api('DELETE', `/groups/${group.id}/members/${user.id}`, { token: owner.token })).status,
      ).toBe(204);
      const inner = await api('GET', `/projects/${project.id}/members/${user.id}`, { token: owner.token });
      expect(inner.status).toBe(404);
      expect((await api('GET', `/projects/${project.id}`, { token: user.token })).status).toBe(404);
    });

    it('When a maintainer removes a developer, then 204; a developer removing someone else gets 403', async () => {
      const project = await make.project(owner.token);
      const maintainer = await make.user();
      const developer = await make.user();
      await make.member('projects', project.id, maintainer.id, 40, owner.token);
      await make.member('projects', project.id, developer.id, 30, owner.token);
      const denied = await api('DELETE', `/projects/${project.id}/members/${maintainer.id}`, {
        token: developer.token,
      });
      expect(denied.status).toBe(403);
      const removed = await api('DELETE', `/projects/${project.id}/members/${developer.id}`, {
        token: maintainer.token,
      });
      expect(removed.status).toBe(204);
      const ownerOut = await api('DELETE', `/projects/${project.id}/members/${owner.id}`, {
        token: maintainer.token,
      });
      expect(ownerOut.status).toBe(403);
    });
  });
});
