import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { COMMAND_TYPES, registryTagDetailEntity, registryTagEntity } from '@gl/contracts';
import { HOST, digestOf, startRegistryHarness, type SeededProject } from './testing/registry.harness';
import { DEVELOPER, GUEST, REPORTER, useHarness } from '@gl/testing';

describe('registry tags', () => {
  const h = useHarness(startRegistryHarness);
  let p: SeededProject;
  let repo: number;
  const base = () => `/projects/${p.id}/registry/repositories/${repo}`;
  beforeAll(async () => {
    p = await h.seedProject('tags-group/tags-project');
    for (const name of ['v2', 'latest', 'v10', 'a.b-c_d', 'v1'])
      repo = await h.pushTag(`${p.fullPath}/img`, name);
  });

  it('When tags are listed, then they are sorted by name with path and location', async () => {
    const reply = await h.call('GET', `${base()}/tags`, { ns: p.ns, as: REPORTER });
    expect(reply.status).toBe(200);
    const tags = z.array(registryTagEntity).parse(reply.body);
    expect(tags.map((t) => t.name)).toEqual(['a.b-c_d', 'latest', 'v1', 'v10', 'v2']);
    expect(tags[1]).toEqual({
      name: 'latest',
      path: 'tags-group/tags-project/img:latest',
      location: `${HOST}/tags-group/tags-project/img:latest`,
    });
    expect(reply.headers.get('x-total')).toBe('5');
  });

  it('When paginated, then the page of names and the Link header follow', async () => {
    const reply = await h.call('GET', `${base()}/tags?per_page=2&page=3`, { ns: p.ns });
    expect(
      z
        .array(registryTagEntity)
        .parse(reply.body)
        .map((t) => t.name),
    ).toEqual(['v2']);
    expect(reply.headers.get('x-next-page')).toBe('');
    expect(reply.headers.get('link')).toContain('rel="first"');
  });

  it('When a guest lists tags of a private project, then 403; unknown repository 404', async () => {
    expect((await h.call('GET', `${base()}/tags`, { ns: p.ns, as: GUEST })).status).toBe(403);
    expect(
      (await h.call('GET', `/projects/${p.id}/registry/repositories/99999/tags`, { ns: p.ns })).body,
    ).toEqual({
      message: '404 Not found',
    });
  });

  it('When tags change after a listing, then the next listing shows the change (cached names refresh)', async () => {
    const q = await h.seedProject('tags-group/changing');
    const id = await h.pushTag(q.fullPath, 'b');
    const names = async () =>
      z
        .array(registryTagEntity)
        .parse((await h.call('GET', `/projects/${q.id}/registry/repositories/${id}/tags`, { ns: q.ns })).body)
        .map((t) => t.name);
    expect(await names()).toEqual(['b']);
    await h.pushTag(q.fullPath, 'a');
    expect(await names()).toEqual(['a', 'b']);
    await h.notify([{ action: 'delete', target: { repository: q.fullPath, tag: 'b' } }]);
    expect(await names()).toEqual(['a']);
    await h.worker.handle({
      id: randomUUID(),
      type: COMMAND_TYPES.registry.cleanupTags,
      version: 1,
      occurredAt: new Date().toISOString(),
      producer: 'registry',
      correlationId: null,
      actor: null,
      projectId: q.id,
      groupId: null,
      data: { repositoryId: id, nameRegexDelete: '.*', nameRegexKeep: null, keepN: null, olderThan: null },
    });
    expect(await names()).toEqual([]);
  });

  it('When a tag with dots is read, then its detail', async () => {
    const reply = await h.call('GET', `${base()}/tags/a.b-c_d`, { ns: p.ns, as: REPORTER });
    expect(registryTagDetailEntity.parse(reply.body)).toMatchObject({
      name: 'a.b-c_d',
      digest: digestOf(`${p.fullPath}/img:a.b-c_d`),
      total_size: 528,
    });
  });

  it('When the tag does not exist, then 404 Tag Not Found', async () => {
    expect((await h.call('GET', `${base()}/tags/nope`, { ns: p.ns })).body).toEqual({
      message: '404 Tag Not Found',
    });
    expect((await h.call('DELETE', `${base()}/tags/nope`, { ns: p.ns })).body).toEqual({
      message: '404 Tag Not Found',
    });
  });

  it('When a reporter deletes a tag, then 403; anonymous 401', async () => {
    expect((await h.call('DELETE', `${base()}/tags/v1`, { ns: p.ns, as: REPORTER })).status).toBe(403);
    expect((await h.call('DELETE', `${base()}/tags/v1`, { ns: p.ns, as: null })).status).toBe(401);
  });

  it('When a developer deletes a tag, then 200 with a JSON body and the tag is gone', async () => {
    const reply = await h.call('DELETE', `${base()}/tags/v1`, { ns: p.ns, as: DEVELOPER });
    expect(reply).toMatchObject({ status: 200, body: 200 });
    expect(reply.headers.get('content-type')).toContain('application/json');
    expect((await h.call('GET', `${base()}/tags/v1`, { ns: p.ns })).status).toBe(404);
  });
});
