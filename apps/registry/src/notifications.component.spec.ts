import { z } from 'zod';
import { EVENT_TYPES, registryRepositoryEntity, registryTagDetailEntity } from '@gl/contracts';
import { digestOf, HOST, SECRET, pushEvent, startRegistryHarness } from './testing/registry.harness';
import { ROOT as ADMIN, useHarness } from '@gl/testing';

describe('POST /container_registry_event/events', () => {
  const h = useHarness(startRegistryHarness);

  it('When the Authorization header is missing or differs, then 401 and nothing is recorded', async () => {
    const p = await h.seedProject('auth-group/auth-project');
    for (const authorization of ['', 'wrong', `Bearer x`]) {
      const reply = await h.notify([pushEvent(p.fullPath, 'v1', digestOf('a'))], authorization);
      expect(reply).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    }
    expect(await h.models.repositories.countDocuments({ projectId: p.id })).toBe(0);
  });

  it("When the Authorization header is non-ASCII with the secret's length, then 401 (it was a 500 that revealed the length)", async () => {
    const p = await h.seedProject('auth-group/non-ascii');
    // UTF-8 "é" is two bytes, which the server reads as two characters: as many as the secret has.
    const utf8 = 'é'.repeat(Math.floor(SECRET.length / 2)) + 'a'.repeat(SECRET.length % 2);
    const authorization = Buffer.from(utf8, 'utf8').toString('latin1');
    expect(authorization).toHaveLength(SECRET.length);
    const reply = await h.notify([pushEvent(p.fullPath, 'v1', digestOf('a'))], authorization);
    expect(reply).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    expect(await h.models.repositories.countDocuments({ projectId: p.id })).toBe(0);
  });

  it('When a tagged manifest is pushed to the project path, then the root repository and the tag appear', async () => {
    const p = await h.seedProject('Notify-Group/Root-Project');
    const digest = digestOf('root');
    const reply = await h.notify([
      pushEvent('notify-group/root-project', 'v1.0', digest, '2026-01-02T03:04:05.000Z'),
    ]);
    expect(reply.status).toBe(200);
    const list = z
      .array(registryRepositoryEntity)
      .parse((await h.call('GET', `/projects/${p.id}/registry/repositories`, { ns: p.ns })).body);
    expect(list).toEqual([
      expect.objectContaining({
        name: '',
        path: 'notify-group/root-project',
        project_id: p.id,
        location: `${HOST}/notify-group/root-project`,
      }),
    ]);
    const tag = registryTagDetailEntity.parse(
      (await h.call('GET', `/projects/${p.id}/registry/repositories/${list[0]!.id}/tags/v1.0`, { ns: p.ns }))
        .body,
    );
    expect(tag).toEqual({
      name: 'v1.0',
      path: 'notify-group/root-project:v1.0',
      location: `${HOST}/notify-group/root-project:v1.0`,
      revision: null,
      short_revision: null,
      digest,
      created_at: '2026-01-02T03:04:05.000Z',
      total_size: 528,
    });
  });

  it('When the path has a name below a nested project, then a named repository of that project is created', async () => {
    const p = await h.seedProject('outer/inner/app', { ancestorGroupIds: [1, 2] });
    await h.seedProject('outer/inner');
    await h.pushTag('outer/inner/app/images/web', 'latest');
    const repo = await h.models.repositories.findOne({ projectId: p.id }).lean();
    expect(repo).toMatchObject({ name: 'images/web', path: 'outer/inner/app/images/web' });
  });

  it('When the same tag is pushed twice in one batch and again later, then one repository and one tag', async () => {
    const p = await h.seedProject('dup-group/dup');
    await h.notify([pushEvent(p.fullPath, 'a', digestOf('1')), pushEvent(p.fullPath, 'a', digestOf('2'))]);
    await h.notify([pushEvent(p.fullPath, 'a', digestOf('3'))]);
    const repos = await h.models.repositories.find({ projectId: p.id }).lean();
    expect(repos).toHaveLength(1);
    const tags = await h.models.tags.find({ repositoryId: repos[0]!._id }).lean();
    expect(tags).toEqual([expect.objectContaining({ name: 'a', digest: digestOf('3') })]);
  });

  it('When blob pushes, untagged manifests and unknown projects arrive, then they are ignored with 200', async () => {
    const p = await h.seedProject('ign-group/ign');
    const blob = pushEvent(p.fullPath, 'x', digestOf('blob'));
    blob.target.mediaType = 'application/octet-stream';
    const untagged = pushEvent(p.fullPath, '', digestOf('untagged'));
    const unknown = pushEvent('nobody/nothing', 'v1', digestOf('u'));
    const reply = await h.notify([blob, untagged, unknown, { action: 'pull' }]);
    expect(reply.status).toBe(200);
    expect(await h.models.repositories.countDocuments({ projectId: p.id })).toBe(0);
  });

  it('When the registry reports a delete by tag or by digest, then those tags go', async () => {
    const p = await h.seedProject('del-group/del');
    const shared = digestOf('shared');
    const id = await h.pushTag(p.fullPath, 'a', shared);
    await h.pushTag(p.fullPath, 'b', shared);
    await h.pushTag(p.fullPath, 'c', digestOf('c'));
    await h.notify([{ action: 'delete', target: { repository: p.fullPath, digest: shared } }]);
    expect((await h.models.tags.find({ repositoryId: id }).lean()).map((t) => t.name)).toEqual(['c']);
    await h.notify([{ action: 'delete', target: { repository: p.fullPath, tag: 'c' } }]);
    expect(await h.models.tags.countDocuments({ repositoryId: id })).toBe(0);
  });

  it('When a project is renamed, then its repositories show the new path', async () => {
    const p = await h.seedProject('ren-group/before');
    await h.pushTag(p.fullPath, 'v1');
    await h.identity(EVENT_TYPES.identity.projectUpdated, {
      projectId: p.id,
      name: 'after',
      path: 'after',
      fullPath: 'ren-group/after',
      namespaceId: 1,
      ancestorGroupIds: [],
      visibility: 'private',
    });
    const repo = await h.models.repositories.findOne({ projectId: p.id }).lean();
    const reply = await h.call('GET', `/registry/repositories/${repo!._id}`, { as: ADMIN });
    expect(reply.body).toMatchObject({ path: 'ren-group/after', location: `${HOST}/ren-group/after` });
    await h.pushTag('ren-group/after', 'v2');
    expect(await h.models.repositories.countDocuments({ projectId: p.id })).toBe(1);
  });

  it('When a project is destroyed, then pushes to its path are ignored and a late update does not revive it', async () => {
    const p = await h.seedProject('gone-group/gone');
    const data = {
      projectId: p.id,
      name: 'gone',
      path: 'gone',
      fullPath: p.fullPath,
      namespaceId: 1,
      ancestorGroupIds: [],
      visibility: 'private',
    };
    await h.identity(EVENT_TYPES.identity.projectDestroyed, data);
    await h.identity(EVENT_TYPES.identity.projectUpdated, data);
    await h.notify([pushEvent(p.fullPath, 'v1', digestOf('gone'))]);
    expect(await h.models.repositories.countDocuments({ projectId: p.id })).toBe(0);
  });
});
