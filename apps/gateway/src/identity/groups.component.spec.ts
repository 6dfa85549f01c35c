import { EVENT_TYPES, groupDetailEntity, groupEntity, groupEventData, memberEventData } from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord, unique, type TestUser } from '../testing/identity.api';

describe('identity: groups and subgroups', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-groups' });
  let owner: TestUser;

  beforeAll(async () => {
    owner = await make.user();
  });

  describe('POST /groups', () => {
    it('When a user creates a group, then 201, private by default, creator is Owner, events published', async () => {
      const path = unique('team');
      const res = await api('POST', '/groups', {
        token: owner.token,
        body: { name: 'The Team', path, description: 'd' },
      });
      expect(res.status).toBe(201);
      const group = groupDetailEntity.parse(res.body);
      expect(group).toMatchObject({
        name: 'The Team',
        path,
        full_path: path,
        full_name: 'The Team',
        visibility: 'private',
        parent_id: null,
        description: 'd',
        web_url: `http://gitlab.example.test/groups/${path}`,
        projects: [],
      });

      const members = await api('GET', `/groups/${group.id}/members`, { token: owner.token });
      expect(asList(members.body)).toEqual([expect.objectContaining({ id: owner.id, access_level: 50 })]);

      const created = (await published(EVENT_TYPES.identity.groupCreated)).find(
        (e) => e.groupId === group.id,
      );
      expect(groupEventData.parse(created!.data)).toEqual({
        groupId: group.id,
        name: 'The Team',
        path,
        fullPath: path,
        parentId: null,
        ancestorGroupIds: [],
        visibility: 'private',
      });
      const added = (await published(EVENT_TYPES.identity.memberAdded)).find((e) => e.groupId === group.id);
      expect(memberEventData.parse(added!.data)).toEqual({
        sourceType: 'group',
        sourceId: group.id,
        userId: owner.id,
        accessLevel: 50,
        expiresAt: null,
        revision: expect.any(Number) as number,
      });
    });

    it('When name or path is missing or the visibility unknown, then 400 in Grape form', async () => {
      const missing = await api('POST', '/groups', { token: owner.token, body: { name: 'x' } });
      expect(missing.status).toBe(400);
      expect(missing.body).toEqual({ error: 'path is missing' });
      const visibility = await api('POST', '/groups', {
        token: owner.token,
        body: { name: 'x', path: unique('x'), visibility: 'secret' },
      });
      expect(visibility.body).toEqual({ error: 'visibility does not have a valid value' });
    });

    it('When the path is taken (even by a user), then 400 Failed to save group', async () => {
      const group = await make.group(owner.token);
      for (const path of [group.path.toUpperCase(), owner.username]) {
        const res = await api('POST', '/groups', { token: owner.token, body: { name: 'dup', path } });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ message: 'Failed to save group {:path=>["has already been taken"]}' });
      }
    });

    it('When a user may not create groups, then 403', async () => {
      const limited = await make.user({ canCreateGroup: false });
      const res = await api('POST', '/groups', {
        token: limited.token,
        body: { name: 'x', path: unique('x') },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: '403 Forbidden' });
    });

    it('When a read_api token creates a group, then 403 insufficient_scope', async () => {
      const reader = await make.user({ scopes: ['read_api'] });
      const res = await api('POST', '/groups', {
        token: reader.token,
        body: { name: 'x', path: unique('x') },
      });
      expect(res.status).toBe(403);
      expect(asRecord(res.body)).toMatchObject({ error: 'insufficient_scope', scope: 'api' });
    });
  });

  describe('subgroups', () => {
    it('When an owner creates a subgroup, then its full path and name include the parent', async () => {
      const parent = await make.group(owner.token, { name: 'Parent' });
      const res = await api('POST', '/groups', {
        token: owner.token,
        body: { name: 'Child', path: 'child', parent_id: parent.id },
      });
      expect(res.status).toBe(201);
      expect(groupEntity.parse(res.body)).toMatchObject({
        full_path: `${parent.path}/child`,
        full_name: 'Parent / Child',
        parent_id: parent.id,
      });
    });

    it('When a subgroup would be more visible than its parent, then 400 with the visibility error', async () => {
      const parent = await make.group(owner.token);
      const res = await api('POST', '/groups', {
        token: owner.token,
        body: { name: 'pub', path: 'pub', parent_id: parent.id, visibility: 'public' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message:
          'Failed to save group {:visibility_level=>["public is not allowed since the parent group has a private visibility."]}',
      });
    });

    it('When a developer creates a subgroup, then 403; a maintainer may; an outsider gets 404', async () => {
      const parent = await make.group(owner.token);
      const developer = await make.user();
      const maintainer = await make.user();
      const outsider = await make.user();
      await make.member('groups', parent.id, developer.id, 30);
      await make.member('groups', parent.id, maintainer.id, 40);
      const body = { name: 'sub', path: unique('sub'), parent_id: parent.id };
      expect((await api('POST', '/groups', { token: developer.token, body })).status).toBe(403);
      expect((await api('POST', '/groups', { token: maintainer.token, body })).status).toBe(201);
      const hidden = await api('POST', '/groups', {
        token: outsider.token,
        body: { ...body, path: unique('s') },
      });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ message: '404 Group Not Found' });
    });
  });

  describe('GET /groups/:id', () => {
    it('When a private group is read, then members (direct or inherited) and admins see it, others get 404', async () => {
      const parent = await make.group(owner.token);
      const sub = await make.group(owner.token, { parent_id: parent.id, path: 'sub' });
      const inherited = await make.user();
      const outsider = await make.user();
      await make.member('groups', parent.id, inherited.id, 10);

      const encoded = encodeURIComponent(`${parent.path}/sub`);
      const byPath = await api('GET', `/groups/${encoded}`, { token: inherited.token });
      expect(byPath.status).toBe(200);
      expect(groupDetailEntity.parse(byPath.body)).toMatchObject({
        id: sub.id,
        full_path: `${parent.path}/sub`,
      });
      expect((await api('GET', `/groups/${sub.id}`)).status).toBe(200);

      for (const token of [outsider.token, null]) {
        const res = await api('GET', `/groups/${sub.id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 Group Not Found' });
      }
    });

    it('When a group is public, then anonymous callers see it; internal needs a signed-in user', async () => {
      const open = await make.group(owner.token, { visibility: 'public' });
      const internal = await make.group(owner.token, { visibility: 'internal' });
      const someone = await make.user();
      expect((await api('GET', `/groups/${open.path}`, { token: null })).status).toBe(200);
      expect((await api('GET', `/groups/${internal.id}`, { token: null })).status).toBe(404);
      expect((await api('GET', `/groups/${internal.id}`, { token: someone.token })).status).toBe(200);
    });

    it('When a group has projects, then the detail lists the ones the caller can see', async () => {
      const group = await make.group(owner.token, { visibility: 'public' });
      const visible = await make.project(owner.token, { namespace_id: group.id, visibility: 'public' });
      await make.project(owner.token, { namespace_id: group.id });
      const res = await api('GET', `/groups/${group.id}`, { token: null });
      expect(asList(asRecord(res.body).projects).map((p) => p.id)).toEqual([visible.id]);
      const mine = await api('GET', `/groups/${group.id}`, { token: owner.token });
      expect(asList(asRecord(mine.body).projects)).toHaveLength(2);
    });

    it('When a bad token is sent for a public group, then 401 rather than anonymous access', async () => {
      const open = await make.group(owner.token, { visibility: 'public' });
      const res = await api('GET', `/groups/${open.id}`, { token: 'glpat-wrong' });
      expect(res.status).toBe(401);
    });
  });

  describe('GET /groups', () => {
    it('When anonymous lists groups, then only public groups come back, sorted by name', async () => {
      await make.group(owner.token, { visibility: 'public', name: 'zzz-public' });
      await make.group(owner.token, { visibility: 'public', name: 'aaa-public' });
      await make.group(owner.token, { name: 'hidden-private' });
      const res = await api('GET', '/groups?per_page=100', { token: null });
      expect(res.status).toBe(200);
      const groups = asList(res.body).map((g) => groupEntity.parse(g));
      expect(groups.every((g) => g.visibility === 'public')).toBe(true);
      const names = groups.map((g) => g.name);
      expect(names).toEqual([...names].sort());
    });

    it('When a member lists groups, then their groups and subgroups come back; all_available adds visible ones', async () => {
      const user = await make.user();
      const mine = await make.group(user.token, { name: unique('mine') });
      const sub = await make.group(user.token, { parent_id: mine.id, path: 'inner' });
      const open = await make.group(owner.token, { visibility: 'internal' });
      const listed = asList((await api('GET', '/groups', { token: user.token })).body).map((g) => g.id);
      expect(listed).toEqual(expect.arrayContaining([mine.id, sub.id]));
      expect(listed).not.toContain(open.id);
      const all = await api('GET', '/groups?all_available=true&per_page=100', { token: user.token });
      expect(asList(all.body).map((g) => g.id)).toEqual(expect.arrayContaining([mine.id, open.id]));
      const top = await api('GET', '/groups?top_level_only=true', { token: user.token });
      expect(asList(top.body).map((g) => g.id)).toEqual([mine.id]);
    });

    it('When owned=true, then only groups where the user is a direct Owner come back', async () => {
      const user = await make.user();
      const owned = await make.group(user.token);
      const guestOf = await make.group(owner.token);
      await make.member('groups', guestOf.id, user.id, 10);
      const res = await api('GET', '/groups?owned=true', { token: user.token });
      expect(asList(res.body).map((g) => g.id)).toEqual([owned.id]);
    });

    it('When groups are searched and paged, then matches come back with pagination headers', async () => {
      const user = await make.user();
      const tag = unique('needle');
      for (const n of [1, 2, 3]) await make.group(user.token, { name: `${tag}-${n}`, path: `${tag}-${n}` });
      const res = await api('GET', `/groups?search=${tag}&per_page=2&page=2`, { token: user.token });
      expect(res.headers.get('x-total')).toBe('3');
      expect(res.headers.get('x-total-pages')).toBe('2');
      expect(res.headers.get('x-prev-page')).toBe('1');
      expect(res.headers.get('x-next-page')).toBe('');
      expect(asList(res.body).map((g) => g.name)).toEqual([`${tag}-3`]);
      const link = res.headers.get('link')!;
      expect(link.indexOf('rel="prev"')).toBeLessThan(link.indexOf('rel="first"'));
      expect(link).toContain(`search=${tag}`);
    });
  });

  describe('GET /groups/:id/projects and /subgroups', () => {
    it('When a group is listed with include_subgroups, then projects of its subgroups come too', async () => {
      const group = await make.group(owner.token, { visibility: 'public' });
      const sub = await make.group(owner.token, {
        parent_id: group.id,
        path: 'sub',
        visibility: 'public',
      });
      const top = await make.project(owner.token, { namespace_id: group.id, visibility: 'public' });
      const inner = await make.project(owner.token, { namespace_id: sub.id });
      const direct = await api('GET', `/groups/${group.id}/projects`, { token: owner.token });
      expect(asList(direct.body).map((p) => p.id)).toEqual([top.id]);
      const deep = await api('GET', `/groups/${group.id}/projects?include_subgroups=true`, {
        token: owner.token,
      });
      expect(asList(deep.body).map((p) => p.id)).toEqual([inner.id, top.id]);
      expect(deep.headers.get('x-total')).toBe('2');
      const anonymous = await api('GET', `/groups/${group.id}/projects?include_subgroups=true`, {
        token: null,
      });
      expect(asList(anonymous.body).map((p) => p.id)).toEqual([top.id]);

      const subgroups = await api('GET', `/groups/${encodeURIComponent(group.path)}/subgroups`, {
        token: null,
      });
      expect(asList(subgroups.body).map((g) => groupEntity.parse(g).id)).toEqual([sub.id]);
    });
  });

  describe('PUT /groups/:id', () => {
    it('When the owner changes the path, then subgroups and projects move with it and events tell', async () => {
      const group = await make.group(owner.token);
      const sub = await make.group(owner.token, { parent_id: group.id, path: 'sub' });
      const project = await make.project(owner.token, { namespace_id: sub.id, path: 'proj' });
      const newPath = unique('moved');
      const res = await api('PUT', `/groups/${group.id}`, {
        token: owner.token,
        body: { path: newPath, name: 'Moved' },
      });
      expect(res.status).toBe(200);
      expect(groupDetailEntity.parse(res.body)).toMatchObject({
        path: newPath,
        full_path: newPath,
        name: 'Moved',
      });

      const moved = await api('GET', `/projects/${encodeURIComponent(`${newPath}/sub/proj`)}`, {
        token: owner.token,
      });
      expect(moved.status).toBe(200);
      expect(asRecord(moved.body)).toMatchObject({
        id: project.id,
        name_with_namespace: `Moved / sub / proj`,
      });
      const old = await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}`, {
        token: owner.token,
      });
      expect(old.status).toBe(404);
      expect(asRecord((await api('GET', `/groups/${sub.id}`, { token: owner.token })).body).full_name).toBe(
        'Moved / sub',
      );

      const groupEvents = await published(EVENT_TYPES.identity.groupUpdated);
      expect(groupEvents.find((e) => e.groupId === sub.id)?.data.fullPath).toBe(`${newPath}/sub`);
      const projectEvents = await published(EVENT_TYPES.identity.projectUpdated);
      expect(projectEvents.find((e) => e.projectId === project.id)?.data.fullPath).toBe(
        `${newPath}/sub/proj`,
      );

      // The old path is free again.
      await make.group(owner.token, { path: group.path });
    });

    it('When the new path is taken, then 400 with the validation hash', async () => {
      const a = await make.group(owner.token);
      const b = await make.group(owner.token);
      const res = await api('PUT', `/groups/${a.id}`, { token: owner.token, body: { path: b.path } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { path: ['has already been taken'] } });
    });

    it('When a group would become less visible than its projects, then 400', async () => {
      const group = await make.group(owner.token, { visibility: 'public' });
      await make.project(owner.token, { namespace_id: group.id, visibility: 'public' });
      const res = await api('PUT', `/groups/${group.id}`, {
        token: owner.token,
        body: { visibility: 'private' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: {
          visibility_level: [
            'private is not allowed since this group contains projects with higher visibility.',
          ],
        },
      });
    });

    it('When a maintainer updates the group, then 403', async () => {
      const group = await make.group(owner.token);
      const maintainer = await make.user();
      await make.member('groups', group.id, maintainer.id, 40);
      const res = await api('PUT', `/groups/${group.id}`, {
        token: maintainer.token,
        body: { description: 'x' },
      });
      expect(res.status).toBe(403);
    });
  });

  describe('DELETE /groups/:id', () => {
    it('When the owner deletes a group, then 202 with a JSON body and the whole subtree is gone', async () => {
      const group = await make.group(owner.token);
      const sub = await make.group(owner.token, { parent_id: group.id, path: 'sub' });
      const project = await make.project(owner.token, { namespace_id: sub.id });
      const res = await api('DELETE', `/groups/${group.id}`, { token: owner.token, body: {} });
      expect(res.status).toBe(202);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toEqual({ message: '202 Accepted' });

      for (const path of [`/groups/${group.id}`, `/groups/${sub.id}`]) {
        expect((await api('GET', path)).body).toEqual({ message: '404 Group Not Found' });
      }
      expect((await api('GET', `/projects/${project.id}`)).body).toEqual({
        message: '404 Project Not Found',
      });

      const destroyed = (await published(EVENT_TYPES.identity.groupDestroyed)).map((e) => e.groupId);
      expect(destroyed).toEqual(expect.arrayContaining([group.id, sub.id]));
      const projects = (await published(EVENT_TYPES.identity.projectDestroyed)).map((e) => e.projectId);
      expect(projects).toContain(project.id);
      const removed = await published(EVENT_TYPES.identity.memberRemoved);
      expect(removed.some((e) => e.groupId === group.id && e.data.userId === owner.id)).toBe(true);

      // Its path can be used again.
      await make.group(owner.token, { path: group.path });
    });

    it('When a maintainer deletes a group, then 403; an admin may', async () => {
      const group = await make.group(owner.token);
      const maintainer = await make.user();
      await make.member('groups', group.id, maintainer.id, 40);
      expect((await api('DELETE', `/groups/${group.id}`, { token: maintainer.token })).status).toBe(403);
      expect((await api('DELETE', `/groups/${group.id}`)).status).toBe(202);
    });
  });
});
