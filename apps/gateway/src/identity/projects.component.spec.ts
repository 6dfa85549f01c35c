import {
  EVENT_TYPES,
  basicProjectEntity,
  projectEntity,
  projectEventData,
  starrerEntity,
} from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord, unique, type TestUser } from '../testing/identity.api';

describe('identity: projects and stars', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-projects' });
  let alice: TestUser;

  beforeAll(async () => {
    alice = await make.user();
  });

  describe('POST /projects', () => {
    it('When a user creates a project, then it lands in their namespace, they own it, project.created is published', async () => {
      const res = await api('POST', '/projects', {
        token: alice.token,
        body: { name: 'My Project', path: 'my-project', description: 'first' },
      });
      expect(res.status).toBe(201);
      const project = projectEntity.parse(res.body);
      expect(project).toMatchObject({
        name: 'My Project',
        path: 'my-project',
        path_with_namespace: `${alice.username}/my-project`,
        name_with_namespace: `User ${alice.username} / My Project`,
        visibility: 'private',
        default_branch: 'main',
        description: 'first',
        creator_id: alice.id,
        star_count: 0,
        web_url: `http://gitlab.example.test/${alice.username}/my-project`,
        namespace: { kind: 'user', path: alice.username, full_path: alice.username },
        owner: { id: alice.id, username: alice.username },
      });
      expect(project.permissions).toBeUndefined();

      const members = await api('GET', `/projects/${project.id}/members`, { token: alice.token });
      expect(asList(members.body)).toEqual([expect.objectContaining({ id: alice.id, access_level: 50 })]);

      const event = (await published(EVENT_TYPES.identity.projectCreated)).find(
        (e) => e.projectId === project.id,
      );
      expect(event).toMatchObject({ groupId: null, actor: { id: alice.id } });
      expect(projectEventData.parse(event!.data)).toEqual({
        projectId: project.id,
        name: 'My Project',
        path: 'my-project',
        fullPath: `${alice.username}/my-project`,
        namespaceId: project.namespace.id,
        ancestorGroupIds: [],
        visibility: 'private',
        features: expect.objectContaining({
          issues: 'enabled',
          security_and_compliance: 'private',
        }) as unknown,
      });
    });

    it('When only a name is given, then the path is derived from it', async () => {
      const res = await api('POST', '/projects', { token: alice.token, body: { name: 'Hello World!' } });
      expect(res.status).toBe(201);
      expect(asRecord(res.body)).toMatchObject({ name: 'Hello World!', path: 'hello-world' });
    });

    it('When neither name nor path is given, then 400 at_least_one_of', async () => {
      const res = await api('POST', '/projects', { token: alice.token, body: { description: 'x' } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'name, path are missing, at least one parameter must be provided' });
    });

    it('When the name and path are taken in the namespace, then 400 with both model errors', async () => {
      const path = unique('dup');
      await make.project(alice.token, { path });
      const res = await api('POST', '/projects', {
        token: alice.token,
        body: { name: path, path: path.toUpperCase() },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: { name: ['has already been taken'], path: ['has already been taken'] },
      });
    });

    it('When a developer creates a project in a group, then it is allowed and they become its Maintainer', async () => {
      const group = await make.group(alice.token, { visibility: 'internal' });
      const dev = await make.user();
      await make.member('groups', group.id, dev.id, 30);
      const res = await api('POST', '/projects', {
        token: dev.token,
        body: { path: 'devproj', namespace_id: group.id, visibility: 'public' },
      });
      expect(res.status).toBe(201);
      // A project is capped at its group's visibility on create.
      expect(projectEntity.parse(res.body)).toMatchObject({
        path_with_namespace: `${group.path}/devproj`,
        visibility: 'internal',
        namespace: { id: group.id, kind: 'group' },
      });
      expect(asRecord(res.body).owner).toBeUndefined();
      const members = await api('GET', `/projects/${asRecord(res.body).id as number}/members`, {
        token: dev.token,
      });
      expect(asList(members.body)).toEqual([expect.objectContaining({ id: dev.id, access_level: 40 })]);
    });

    it.each([
      ['Guest', 10, 400],
      ['Reporter', 20, 400],
      ['Developer', 30, 201],
      ['Maintainer', 40, 201],
      ['Owner', 50, 201],
    ])(
      'When a %s asks for a public or internal project in a private group, then %i; created ones are private',
      async (_role, level, status) => {
        const group = await make.group(alice.token);
        const member = await make.user();
        await make.member('groups', group.id, member.id, level);
        for (const visibility of ['public', 'internal']) {
          const res = await api('POST', '/projects', {
            token: member.token,
            body: { path: unique('capped'), namespace_id: group.id, visibility },
          });
          expect(res.status).toBe(status);
          if (status === 400) expect(res.body).toEqual({ message: { namespace: ['is not valid'] } });
          // Projects::CreateService lowers the level to the group's before validating: 201, stored private.
          else expect(projectEntity.parse(res.body).visibility).toBe('private');
        }
      },
    );

    it('When a reporter or a stranger creates a project in a group, then 400 namespace is not valid', async () => {
      const group = await make.group(alice.token);
      const reporter = await make.user();
      await make.member('groups', group.id, reporter.id, 20);
      const res = await api('POST', '/projects', {
        token: reporter.token,
        body: { path: 'x', namespace_id: group.id },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: { namespace: ['is not valid'] } });
      const other = await api('POST', '/projects', {
        token: reporter.token,
        body: {
          path: 'x',
          namespace_id: asRecord((await api('GET', `/users/${alice.id}`)).body).namespace_id as number,
        },
      });
      expect(other.body).toEqual({ message: { namespace: ['is not valid'] } });
    });

    it('When a read_api token creates a project, then 403 insufficient_scope', async () => {
      const reader = await make.user({ scopes: ['read_api'] });
      const res = await api('POST', '/projects', { token: reader.token, body: { path: 'x' } });
      expect(res.status).toBe(403);
      expect(asRecord(res.body).error).toBe('insufficient_scope');
      expect((await api('GET', '/projects', { token: reader.token })).status).toBe(200);
    });
  });

  describe('GET /projects/:id', () => {
    it('When a private project is read, then project members, group members and admins see it; others get 404', async () => {
      const group = await make.group(alice.token, { path: unique('grp') });
      const sub = await make.group(alice.token, { parent_id: group.id, path: 'sub' });
      const project = await make.project(alice.token, { namespace_id: sub.id, path: 'proj' });
      const inherited = await make.user();
      const direct = await make.user();
      const outsider = await make.user();
      await make.member('groups', group.id, inherited.id, 20);
      await make.member('projects', project.id, direct.id, 30);

      const encoded = encodeURIComponent(`${group.path}/sub/proj`);
      expect(encoded).toContain('%2F');
      for (const user of [inherited, direct]) {
        const res = await api('GET', `/projects/${encoded}`, { token: user.token });
        expect(res.status).toBe(200);
        expect(projectEntity.parse(res.body)).toMatchObject({
          id: project.id,
          path_with_namespace: `${group.path}/sub/proj`,
        });
      }
      const withAccess = projectEntity.parse(
        (await api('GET', `/projects/${project.id}`, { token: direct.token })).body,
      );
      expect(withAccess.permissions).toEqual({
        project_access: { access_level: 30, notification_level: 3 },
        group_access: null,
      });
      expect((await api('GET', `/projects/${project.id}`)).status).toBe(200);
      for (const token of [outsider.token, null]) {
        const res = await api('GET', `/projects/${project.id}`, { token });
        expect(res.status).toBe(404);
        expect(res.body).toEqual({ message: '404 Project Not Found' });
      }
    });

    it('When a project is public, then anonymous callers read it; internal ones need a user', async () => {
      const open = await make.project(alice.token, { visibility: 'public' });
      const internal = await make.project(alice.token, { visibility: 'internal' });
      const bob = await make.user();
      expect((await api('GET', `/projects/${open.id}`, { token: null })).status).toBe(200);
      expect((await api('GET', `/projects/${internal.id}`, { token: null })).status).toBe(404);
      expect((await api('GET', `/projects/${internal.id}`, { token: bob.token })).status).toBe(200);
    });

    it('When a project path has no namespace, then it does not resolve', async () => {
      const project = await make.project(alice.token);
      expect((await api('GET', `/projects/${project.path}`, { token: alice.token })).status).toBe(404);
    });
  });

  describe('GET /projects', () => {
    it('When anonymous lists projects, then only public ones in the basic shape come back', async () => {
      const open = await make.project(alice.token, { visibility: 'public' });
      await make.project(alice.token);
      const res = await api('GET', '/projects?per_page=100', { token: null });
      expect(res.status).toBe(200);
      const list = asList(res.body);
      expect(list.map((p) => p.id)).toContain(open.id);
      for (const item of list) expect(basicProjectEntity.strict().parse(item)).toBeTruthy();
      expect(list.every((p) => p.visibility === undefined)).toBe(true);
    });

    it('When a user filters by membership, owned, visibility and search, then the finder rules apply', async () => {
      const carol = await make.user();
      const own = await make.project(carol.token, { path: unique('carolown') });
      const group = await make.group(alice.token);
      const inGroup = await make.project(alice.token, { namespace_id: group.id });
      await make.member('groups', group.id, carol.id, 30);
      const pub = await make.project(alice.token, { visibility: 'public' });

      const ids = async (query: string) =>
        asList((await api('GET', `/projects?per_page=100&${query}`, { token: carol.token })).body).map(
          (p) => p.id,
        );
      expect(await ids('membership=true')).toEqual(expect.arrayContaining([own.id, inGroup.id]));
      expect(await ids('membership=true')).not.toContain(pub.id);
      expect(await ids('owned=true')).toEqual([own.id]);
      expect(await ids('')).toEqual(expect.arrayContaining([own.id, inGroup.id, pub.id]));
      expect(await ids('visibility=public')).not.toContain(own.id);
      expect(await ids(`search=${own.path.slice(0, 12)}`)).toEqual([own.id]);
      const invalid = await api('GET', '/projects?order_by=stars', { token: carol.token });
      expect(invalid.body).toEqual({ error: 'order_by does not have a valid value' });
    });

    it('When projects are paged, then newest come first with pagination headers', async () => {
      const dave = await make.user();
      const made = [];
      for (let i = 0; i < 3; i++) made.push(await make.project(dave.token));
      const res = await api('GET', '/projects?owned=true&per_page=2', { token: dave.token });
      expect(res.headers.get('x-total')).toBe('3');
      expect(res.headers.get('x-next-page')).toBe('2');
      expect(asList(res.body).map((p) => p.id)).toEqual([made[2]!.id, made[1]!.id]);
      const asc = await api('GET', '/projects?owned=true&order_by=id&sort=asc', { token: dave.token });
      expect(asList(asc.body).map((p) => p.id)).toEqual(made.map((p) => p.id));
      expect(projectEntity.parse(asList(res.body)[0]).permissions?.project_access?.access_level).toBe(50);
    });
  });

  describe('PUT /projects/:id', () => {
    it('When a maintainer updates the description, then 200 and project.updated is published', async () => {
      const group = await make.group(alice.token);
      const project = await make.project(alice.token, { namespace_id: group.id });
      const maintainer = await make.user();
      await make.member('projects', project.id, maintainer.id, 40);
      const res = await api('PUT', `/projects/${project.id}`, {
        token: maintainer.token,
        body: { description: 'updated', default_branch: 'develop', name: 'Renamed' },
      });
      expect(res.status).toBe(200);
      expect(projectEntity.parse(res.body)).toMatchObject({
        description: 'updated',
        default_branch: 'develop',
        name: 'Renamed',
      });
      const events = await published(EVENT_TYPES.identity.projectUpdated);
      expect(events.find((e) => e.projectId === project.id)?.data.name).toBe('Renamed');
    });

    it('When a maintainer changes visibility or a developer updates anything, then 403', async () => {
      const project = await make.project(alice.token);
      const maintainer = await make.user();
      const developer = await make.user();
      await make.member('projects', project.id, maintainer.id, 40);
      await make.member('projects', project.id, developer.id, 30);
      const vis = await api('PUT', `/projects/${project.id}`, {
        token: maintainer.token,
        body: { visibility: 'public' },
      });
      expect(vis.status).toBe(403);
      const dev = await api('PUT', `/projects/${project.id}`, {
        token: developer.token,
        body: { description: 'x' },
      });
      expect(dev.status).toBe(403);
      expect(dev.body).toEqual({ message: '403 Forbidden' });
    });

    it('When a group project is made more visible than its group, then 400', async () => {
      const group = await make.group(alice.token);
      const project = await make.project(alice.token, { namespace_id: group.id });
      const res = await api('PUT', `/projects/${project.id}`, {
        token: alice.token,
        body: { visibility: 'public' },
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: { visibility_level: ['public is not allowed in a private group.'] },
      });
    });

    it('When nothing is given, then 400 at_least_one_of', async () => {
      const project = await make.project(alice.token);
      const res = await api('PUT', `/projects/${project.id}`, { token: alice.token, body: {} });
      expect(res.body).toEqual({
        error:
          'analytics_access_level, builds_access_level, container_registry_access_level, default_branch, ' +
          'description, environments_access_level, feature_flags_access_level, forking_access_level, ' +
          'infrastructure_access_level, issues_access_level, merge_requests_access_level, name, ' +
          'pages_access_level, monitor_access_level, path, releases_access_level, repository_access_level, ' +
          'security_and_compliance_access_level, snippets_access_level, visibility, wiki_access_level, ' +
          'issues_enabled, jobs_enabled, merge_requests_enabled, wiki_enabled, snippets_enabled, ' +
          'container_registry_enabled are missing, at least one parameter must be provided',
      });
    });

    it('When the path changes, then the project answers under its new full path only', async () => {
      const project = await make.project(alice.token);
      const path = unique('renamed');
      const res = await api('PUT', `/projects/${project.id}`, { token: alice.token, body: { path } });
      expect(asRecord(res.body).path_with_namespace).toBe(`${alice.username}/${path}`);
      expect((await api('GET', `/projects/${encodeURIComponent(`${alice.username}/${path}`)}`)).status).toBe(
        200,
      );
      expect((await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}`)).status).toBe(
        404,
      );
    });
  });

  describe('DELETE /projects/:id', () => {
    it('When the owner deletes a project, then 202 with a JSON body, it is gone and project.destroyed is published', async () => {
      const project = await make.project(alice.token);
      const res = await api('DELETE', `/projects/${encodeURIComponent(project.path_with_namespace)}`, {
        token: alice.token,
        body: {},
      });
      expect(res.status).toBe(202);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.body).toEqual({ message: '202 Accepted' });
      expect((await api('GET', `/projects/${project.id}`)).status).toBe(404);
      const events = await published(EVENT_TYPES.identity.projectDestroyed);
      expect(events.some((e) => e.projectId === project.id)).toBe(true);
      // The path is free again.
      await make.project(alice.token, { path: project.path });
    });

    it('When a maintainer deletes a project, then 403', async () => {
      const project = await make.project(alice.token);
      const maintainer = await make.user();
      await make.member('projects', project.id, maintainer.id, 40);
      expect((await api('DELETE', `/projects/${project.id}`, { token: maintainer.token })).status).toBe(403);
    });
  });

  describe('stars', () => {
    it('When a user stars and unstars, then 201 with star_count, and 304 with no body when nothing changes', async () => {
      const project = await make.project(alice.token, { visibility: 'public' });
      const bob = await make.user();
      const star = await api('POST', `/projects/${project.id}/star`, { token: bob.token });
      expect(star.status).toBe(201);
      expect(projectEntity.parse(star.body).star_count).toBe(1);
      const again = await api('POST', `/projects/${project.id}/star`, { token: bob.token });
      expect(again.status).toBe(304);
      expect(again.text).toBe('');

      const starred = await api('GET', '/projects?starred=true', { token: bob.token });
      expect(asList(starred.body).map((p) => p.id)).toEqual([project.id]);
      const starrers = await api('GET', `/projects/${project.id}/starrers`, { token: null });
      expect(asList(starrers.body).map((s) => starrerEntity.parse(s).user.id)).toEqual([bob.id]);

      const unstar = await api('POST', `/projects/${project.id}/unstar`, { token: bob.token });
      expect(unstar.status).toBe(201);
      expect(asRecord(unstar.body).star_count).toBe(0);
      const notStarred = await api('POST', `/projects/${project.id}/unstar`, { token: bob.token });
      expect(notStarred.status).toBe(304);
    });

    it('When a project is invisible or there is no token, then 404 or 401', async () => {
      const project = await make.project(alice.token);
      const bob = await make.user();
      expect((await api('POST', `/projects/${project.id}/star`, { token: bob.token })).status).toBe(404);
      expect((await api('POST', `/projects/${project.id}/star`, { token: null })).status).toBe(401);
    });
  });
});
