import { z } from 'zod';
import { ACCESS_LEVELS, registryRepositoryEntity } from '@gl/contracts';
import { HOST, digestOf, startRegistryHarness, type SeededProject } from './testing/registry.harness';
import { ROOT as ADMIN, DEVELOPER, GUEST, MAINTAINER, REPORTER, STRANGER, useHarness } from '@gl/testing';

const list = z.array(registryRepositoryEntity);

describe('registry repositories', () => {
  const h = useHarness(startRegistryHarness);
  let p: SeededProject;
  let ids: number[];
  beforeAll(async () => {
    p = await h.seedProject('repo-group/repo-project');
    ids = [];
    ids.push(await h.pushTag(p.fullPath, 'latest'));
    await h.pushTag(p.fullPath, 'v1');
    ids.push(await h.pushTag(`${p.fullPath}/web`, 'b'));
    await h.pushTag(`${p.fullPath}/web`, 'a');
    ids.push(await h.pushTag(`${p.fullPath}/api`, 'x'));
  });

  describe('GET /projects/:id/registry/repositories', () => {
    it('When listed, then every repository of the project in id order without tags or tags_count', async () => {
      const reply = await h.call('GET', `/projects/${p.id}/registry/repositories`, { ns: p.ns });
      expect(reply.status).toBe(200);
      const body = list.parse(reply.body);
      expect(body.map((r) => r.id)).toEqual(ids);
      expect(body[1]).toEqual({
        id: ids[1],
        name: 'web',
        path: 'repo-group/repo-project/web',
        project_id: p.id,
        location: `${HOST}/repo-group/repo-project/web`,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
        cleanup_policy_started_at: null,
        status: null,
        delete_api_path: `http://localhost/api/v4/projects/${p.id}/registry/repositories/${ids[1]}`,
      });
      expect(reply.headers.get('x-total')).toBe('3');
    });

    it('When tags=true and tags_count=true, then both appear, tags sorted by name', async () => {
      const body = list.parse(
        (
          await h.call('GET', `/projects/${p.id}/registry/repositories?tags=true&tags_count=true`, {
            ns: p.ns,
          })
        ).body,
      );
      expect(body[1]!.tags_count).toBe(2);
      expect(body[1]!.tags).toEqual([
        {
          name: 'a',
          path: 'repo-group/repo-project/web:a',
          location: `${HOST}/repo-group/repo-project/web:a`,
        },
        {
          name: 'b',
          path: 'repo-group/repo-project/web:b',
          location: `${HOST}/repo-group/repo-project/web:b`,
        },
      ]);
    });

    it('When tags=false or tags_count=false, then they are absent', async () => {
      const body = list.parse(
        (
          await h.call('GET', `/projects/${p.id}/registry/repositories?tags=false&tags_count=false`, {
            ns: p.ns,
          })
        ).body,
      );
      expect(body[0]).not.toHaveProperty('tags');
      expect(body[0]).not.toHaveProperty('tags_count');
    });

    it('When paginated, then per_page and page select and headers tell the total', async () => {
      const reply = await h.call('GET', `/projects/${p.id}/registry/repositories?per_page=2&page=2`, {
        ns: p.ns,
      });
      expect(list.parse(reply.body).map((r) => r.id)).toEqual([ids[2]]);
      expect(reply.headers.get('x-total-pages')).toBe('2');
      expect(reply.headers.get('x-prev-page')).toBe('1');
    });

    it('When per_page=0 or tags is not a boolean, then 400', async () => {
      expect(
        (await h.call('GET', `/projects/${p.id}/registry/repositories?per_page=0`, { ns: p.ns })).status,
      ).toBe(400);
      expect(
        (await h.call('GET', `/projects/${p.id}/registry/repositories?tags=maybe`, { ns: p.ns })).body,
      ).toEqual({ error: 'tags is invalid' });
    });

    it('When a guest reads a private project, then 403; a reporter reads it', async () => {
      expect(
        (await h.call('GET', `/projects/${p.id}/registry/repositories`, { ns: p.ns, as: GUEST })).status,
      ).toBe(403);
      expect(
        (await h.call('GET', `/projects/${p.id}/registry/repositories`, { ns: p.ns, as: REPORTER })).status,
      ).toBe(200);
    });

    it('When a reporter lists, then delete_api_path is left out (maintainers only)', async () => {
      const body = list.parse(
        (await h.call('GET', `/projects/${p.id}/registry/repositories`, { ns: p.ns, as: REPORTER })).body,
      );
      expect(body[0]).not.toHaveProperty('delete_api_path');
    });

    it('When anonymous reads a public project, then 200; no project resolved, then 404', async () => {
      const pub = await h.seedProject('repo-group/public-one', { visibility: 'public' });
      const reply = await h.call('GET', `/projects/${pub.id}/registry/repositories`, {
        ns: pub.ns,
        as: null,
      });
      expect(reply).toMatchObject({ status: 200, body: [] });
      expect((await h.call('GET', `/projects/${pub.id}/registry/repositories`)).body).toEqual({
        message: '404 Project Not Found',
      });
    });
  });

  describe('GET /groups/:id/registry/repositories', () => {
    it('When a group is listed, then repositories of its projects and its subgroups’ projects appear', async () => {
      const group = await h.seedGroup('top');
      const sub = await h.seedGroup('top/sub', { ancestorGroupIds: [group.id] });
      const a = await h.seedProject('top/a', { ancestorGroupIds: [group.id] });
      const b = await h.seedProject('top/sub/b', { ancestorGroupIds: [group.id, sub.id] });
      const other = await h.seedProject('elsewhere/c');
      const ra = await h.pushTag(a.fullPath, 'v1');
      const rb = await h.pushTag(`${b.fullPath}/img`, 'v1');
      await h.pushTag(other.fullPath, 'v1');
      const reply = await h.call('GET', `/groups/${group.id}/registry/repositories?tags_count=true`, {
        ns: group,
        as: REPORTER,
      });
      expect(reply.status).toBe(200);
      const body = list.parse(reply.body);
      expect(body.map((r) => [r.id, r.path, r.tags_count])).toEqual([
        [ra, 'top/a', 1],
        [rb, 'top/sub/b/img', 1],
      ]);
      expect(reply.headers.get('x-total')).toBe('2');
      const subReply = await h.call('GET', `/groups/${sub.id}/registry/repositories`, {
        ns: sub,
        as: REPORTER,
      });
      expect(list.parse(subReply.body).map((r) => r.id)).toEqual([rb]);
    });

    it('When a guest of a private group lists, then 403; a public group shows only readable projects', async () => {
      const group = await h.seedGroup('pubgroup', { visibility: 'public' });
      const open = await h.seedProject('pubgroup/open', {
        ancestorGroupIds: [group.id],
        visibility: 'public',
      });
      const closed = await h.seedProject('pubgroup/closed', { ancestorGroupIds: [group.id] });
      const member = await h.seedProject('pubgroup/member', { ancestorGroupIds: [group.id] });
      await h.addMember('project', member.id, STRANGER.id, ACCESS_LEVELS.reporter);
      const ro = await h.pushTag(open.fullPath, 'v1');
      await h.pushTag(closed.fullPath, 'v1');
      const rm = await h.pushTag(member.fullPath, 'v1');
      const reply = await h.call('GET', `/groups/${group.id}/registry/repositories`, {
        ns: group,
        as: STRANGER,
      });
      expect(list.parse(reply.body).map((r) => r.id)).toEqual([ro, rm]);
      const priv = await h.seedGroup('privgroup');
      expect(
        (await h.call('GET', `/groups/${priv.id}/registry/repositories`, { ns: priv, as: GUEST })).status,
      ).toBe(403);
      // The gateway's find_group! answers 404 first; the service says the same without it.
      expect(
        (await h.call('GET', `/groups/${priv.id}/registry/repositories`, { ns: priv, as: null })).body,
      ).toEqual({ message: '404 Group Not Found' });
    });

    it('When anonymous lists a public group, then 200 with its public projects’ repositories, paginated', async () => {
      const group = await h.seedGroup('anongroup', { visibility: 'public' });
      const seed = (path: string, visibility: 'public' | 'internal' | 'private') =>
        h.seedProject(`anongroup/${path}`, { ancestorGroupIds: [group.id], visibility });
      const [open, inner, closed] = await Promise.all([
        seed('open', 'public'),
        seed('inner', 'internal'),
        seed('closed', 'private'),
      ]);
      const r1 = await h.pushTag(open.fullPath, 'v1');
      const r2 = await h.pushTag(`${open.fullPath}/web`, 'v1');
      await h.pushTag(inner.fullPath, 'v1');
      await h.pushTag(closed.fullPath, 'v1');
      const path = `/groups/${group.id}/registry/repositories`;
      const all = await h.call('GET', path, { ns: group, as: null });
      expect(all.status).toBe(200);
      expect(list.parse(all.body).map((r) => r.id)).toEqual([r1, r2]);
      expect(all.body).toEqual([
        expect.not.objectContaining({ delete_api_path: expect.anything() as unknown }),
        expect.not.objectContaining({ delete_api_path: expect.anything() as unknown }),
      ]);
      const page = await h.call('GET', `${path}?per_page=1&page=2`, { ns: group, as: null });
      expect(list.parse(page.body).map((r) => r.id)).toEqual([r2]);
      expect(page.headers.get('x-total')).toBe('2');
      expect(page.headers.get('x-page')).toBe('2');
      expect(page.headers.get('link')).toContain('rel="first"');
    });
  });

  describe('GET /registry/repositories/:id', () => {
    it('When an admin reads it, then the repository with tags and count when asked', async () => {
      const reply = await h.call('GET', `/registry/repositories/${ids[1]}?tags=true&tags_count=true`, {
        as: ADMIN,
      });
      expect(registryRepositoryEntity.parse(reply.body)).toMatchObject({
        id: ids[1],
        name: 'web',
        path: 'repo-group/repo-project/web',
        tags_count: 2,
        tags: [{ name: 'a' }, { name: 'b' }],
      });
    });

    it('When size=true, then the bytes of its manifests, each once; absent unless asked', async () => {
      const q = await h.seedProject('size-group/sized', { visibility: 'public' });
      // Two tags of one manifest and a third of another: 528 bytes each (the harness's pushed manifest).
      const id = await h.pushTag(q.fullPath, 'latest', digestOf('one'));
      await h.pushTag(q.fullPath, 'v1', digestOf('one'));
      await h.pushTag(q.fullPath, 'v2', digestOf('two'));
      const sized = await h.call('GET', `/registry/repositories/${id}?size=true`, { as: STRANGER });
      expect(registryRepositoryEntity.parse(sized.body).size).toBe(1056);
      const plain = await h.call('GET', `/registry/repositories/${id}?size=false`, { as: STRANGER });
      expect(plain.body).not.toHaveProperty('size');
      expect((await h.call('GET', `/registry/repositories/${id}`, { as: STRANGER })).body).not.toHaveProperty(
        'size',
      );
    });

    it('When a tag’s size is unknown, then size is null; a repository without tags is 0', async () => {
      const q = await h.seedProject('size-group/unknown', { visibility: 'public' });
      const id = await h.pushTag(q.fullPath, 'v1');
      await h.models.tags.updateOne({ repositoryId: id, name: 'v1' }, { $set: { totalSize: null } });
      const reply = await h.call('GET', `/registry/repositories/${id}?size=true`, { as: STRANGER });
      expect(reply.body).toHaveProperty('size', null);
      await h.models.tags.deleteMany({ repositoryId: id });
      const empty = await h.call('GET', `/registry/repositories/${id}?size=true`, { as: STRANGER });
      expect(empty.body).toHaveProperty('size', 0);
      expect((await h.call('GET', `/registry/repositories/${id}?size=maybe`, { as: STRANGER })).status).toBe(
        400,
      );
    });

    it('When anonymous, then 401', async () => {
      expect((await h.call('GET', `/registry/repositories/${ids[0]}`, { as: null })).body).toEqual({
        message: '401 Unauthorized',
      });
    });

    it('When the id is unknown or not an integer, then 404 / 400', async () => {
      expect((await h.call('GET', '/registry/repositories/999999', { as: ADMIN })).body).toEqual({
        message: '404 Not found',
      });
      expect((await h.call('GET', '/registry/repositories/abc', { as: ADMIN })).status).toBe(400);
    });

    it('When the project is private, then non-members get 404, guests 403, reporters via group membership 200', async () => {
      const q = await h.seedProject('acl-group/acl', { ancestorGroupIds: [777] });
      const id = await h.pushTag(q.fullPath, 'v1');
      expect((await h.call('GET', `/registry/repositories/${id}`, { as: STRANGER })).status).toBe(404);
      await h.addMember('project', q.id, GUEST.id, ACCESS_LEVELS.guest);
      expect((await h.call('GET', `/registry/repositories/${id}`, { as: GUEST })).status).toBe(403);
      await h.addMember('group', 777, REPORTER.id, ACCESS_LEVELS.reporter);
      const ok = await h.call('GET', `/registry/repositories/${id}`, { as: REPORTER });
      expect(ok.status).toBe(200);
      expect(ok.body).not.toHaveProperty('delete_api_path');
      await h.addMember('project', q.id, MAINTAINER.id, ACCESS_LEVELS.maintainer);
      expect((await h.call('GET', `/registry/repositories/${id}`, { as: MAINTAINER })).body).toHaveProperty(
        'delete_api_path',
      );
    });

    it('When the project is internal, then any user reads it; public too', async () => {
      const q = await h.seedProject('acl-group/internal', { visibility: 'internal' });
      const id = await h.pushTag(q.fullPath, 'v1');
      expect((await h.call('GET', `/registry/repositories/${id}`, { as: STRANGER })).status).toBe(200);
    });
  });

  describe('DELETE /projects/:id/registry/repositories/:repository_id', () => {
    it('When a developer deletes, then 403; anonymous 401; unknown repository 404', async () => {
      const path = `/projects/${p.id}/registry/repositories/${ids[2]}`;
      expect((await h.call('DELETE', path, { ns: p.ns, as: DEVELOPER })).body).toEqual({
        message: '403 Forbidden',
      });
      expect((await h.call('DELETE', path, { ns: p.ns, as: null })).status).toBe(401);
      expect(
        (await h.call('DELETE', `/projects/${p.id}/registry/repositories/999999`, { ns: p.ns })).body,
      ).toEqual({
        message: '404 Not found',
      });
    });

    it('When another project’s repository id is used, then 404', async () => {
      const other = await h.seedProject('repo-group/other');
      expect(
        (await h.call('DELETE', `/projects/${other.id}/registry/repositories/${ids[0]}`, { ns: other.ns }))
          .status,
      ).toBe(404);
    });

    it('When a maintainer deletes, then 202, status delete_scheduled and one delete job is queued', async () => {
      const q = await h.seedProject('repo-group/to-delete');
      const id = await h.pushTag(q.fullPath, 'v1');
      const reply = await h.call('DELETE', `/projects/${q.id}/registry/repositories/${id}`, {
        ns: q.ns,
        as: MAINTAINER,
      });
      expect(reply).toMatchObject({ status: 202, body: 202 });
      const body = list.parse(
        (await h.call('GET', `/projects/${q.id}/registry/repositories`, { ns: q.ns })).body,
      );
      expect(body[0]!.status).toBe('delete_scheduled');
      const jobs = (await h.pendingJobs()).filter((e) => e.data.repositoryId === id);
      expect(jobs).toEqual([
        expect.objectContaining({
          type: 'cmd.registry.repository.delete',
          projectId: q.id,
          producer: 'registry',
          data: { repositoryId: id },
        }),
      ]);
    });
  });
});
