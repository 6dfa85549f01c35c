import { messageError, paramError, snippetEntity } from '@gl/contracts';
import {
  DEVELOPER,
  GUEST,
  MAINTAINER,
  REPORTER,
  STRANGER,
  startServiceHarness,
  useHarness,
} from '@gl/testing';
import { createDiscussionsApp } from './app';
import { applyFileActions } from './snippets';
import { projectNamespace } from './testing/discussions.harness';

describe('Project snippets: PUT, raw, DELETE', () => {
  // Lenient: `raw` answers plain text, not JSON.
  const h = useHarness(() =>
    startServiceHarness({
      service: 'discussions',
      createApp: createDiscussionsApp,
      caller: { lenientJson: true },
    }),
  );

  async function snippetIn(ns: ReturnType<typeof projectNamespace>, as = REPORTER, visibility = 'private') {
    const res = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      as,
      json: { title: 'S', file_name: 'a.txt', content: 'hello', visibility },
    });
    expect(res.status).toBe(201);
    return snippetEntity.parse(res.body);
  }

  it('When file actions are applied, then create, update, move and delete follow paths; a bad one is null', () => {
    const file = { fileName: 'a.txt', content: 'x' };
    expect(applyFileActions(file, [{ action: 'update', file_path: 'a.txt', content: 'y' }])).toEqual({
      fileName: 'a.txt',
      content: 'y',
    });
    expect(applyFileActions(file, [{ action: 'move', previous_path: 'a.txt', file_path: 'b.txt' }])).toEqual({
      fileName: 'b.txt',
      content: 'x',
    });
    expect(
      applyFileActions(file, [
        { action: 'delete', file_path: 'a.txt' },
        { action: 'create', file_path: 'c.txt', content: 'z' },
      ]),
    ).toEqual({ fileName: 'c.txt', content: 'z' });
    expect(applyFileActions(file, [{ action: 'update', file_path: 'nope', content: 'y' }])).toBeNull();
    expect(applyFileActions(file, [{ action: 'create', file_path: 'b.txt', content: 'y' }])).toBeNull();
  });

  it('When the author changes title, content and visibility, then the snippet shows them and raw is the content', async () => {
    const ns = projectNamespace();
    const snippet = await snippetIn(ns);
    const p = `/projects/${ns.id}/snippets/${snippet.id}`;
    const res = await h.call('PUT', p, {
      ns,
      as: REPORTER,
      json: { title: 'Renamed', content: 'bye', file_name: 'b.md', visibility: 'internal' },
    });
    expect(res.status).toBe(200);
    expect(snippetEntity.parse(res.body)).toMatchObject({
      title: 'Renamed',
      file_name: 'b.md',
      visibility: 'internal',
      files: [{ path: 'b.md' }],
    });
    const raw = await h.call('GET', `${p}/raw`, { ns, as: GUEST });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.text).toBe('bye');
    const files = await h.call('PUT', p, {
      ns,
      as: MAINTAINER,
      json: { files: [{ action: 'move', previous_path: 'b.md', file_path: 'c.md', content: 'moved' }] },
    });
    expect(snippetEntity.parse(files.body).file_name).toBe('c.md');
    expect((await h.call('GET', `${p}/raw`, { ns })).text).toBe('moved');
  });

  it('When the request is wrong, then GitLab 400s, 403 for a Developer who is not the author, 404 unknown, 422 bad actions', async () => {
    const ns = projectNamespace();
    const snippet = await snippetIn(ns);
    const p = `/projects/${ns.id}/snippets/${snippet.id}`;
    const none = await h.call('PUT', p, { ns, json: {} });
    expect(none.status).toBe(400);
    expect(paramError.parse(none.body)).toEqual({
      error:
        'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided',
    });
    const both = await h.call('PUT', p, {
      ns,
      json: { content: 'x', files: [{ action: 'update', file_path: 'a.txt' }] },
    });
    expect(paramError.parse(both.body)).toEqual({ error: 'files, content are mutually exclusive' });
    const blank = await h.call('PUT', p, { ns, json: { title: ' ' } });
    expect(paramError.parse(blank.body)).toEqual({ error: 'title is empty' });
    const dev = await h.call('PUT', p, { ns, as: DEVELOPER, json: { title: 'x' } });
    expect(dev.status).toBe(403);
    expect(messageError.parse(dev.body)).toEqual({ message: '403 Forbidden' });
    const missing = await h.call('PUT', `/projects/${ns.id}/snippets/999999`, { ns, json: { title: 'x' } });
    expect(missing.status).toBe(404);
    expect(messageError.parse(missing.body)).toEqual({ message: '404 Snippet Not Found' });
    const bad = await h.call('PUT', p, {
      ns,
      json: { files: [{ action: 'update', file_path: 'nope', content: 'y' }] },
    });
    expect(bad.status).toBe(422);
    expect(messageError.parse(bad.body)).toEqual({ message: 'Snippet actions have invalid data' });
    expect((await h.call('PUT', p, { ns, as: null, json: { title: 'x' } })).status).toBe(401);
  });

  it('When a private snippet is read raw by a stranger of a public project, then 404 Snippet', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const snippet = await snippetIn(ns, REPORTER, 'private');
    const raw = await h.call('GET', `/projects/${ns.id}/snippets/${snippet.id}/raw`, { ns, as: STRANGER });
    expect(raw.status).toBe(404);
    expect(messageError.parse(raw.body)).toEqual({ message: '404 Snippet Not Found' });
  });

  it('When a snippet is deleted, then a Developer gets 403, the author 204, and it is gone with its notes', async () => {
    const ns = projectNamespace();
    const snippet = await snippetIn(ns);
    const p = `/projects/${ns.id}/snippets/${snippet.id}`;
    await h.call('POST', `${p}/notes`, { ns, json: { body: 'note' } });
    expect((await h.call('DELETE', p, { ns, as: DEVELOPER })).status).toBe(403);
    expect((await h.call('DELETE', p, { ns, as: REPORTER })).status).toBe(204);
    expect((await h.call('GET', p, { ns })).status).toBe(404);
    expect((await h.call('DELETE', p, { ns })).status).toBe(404);
    expect(await h.runtime.connection.collection('notes').countDocuments({ noteableId: snippet.id })).toBe(0);
  });
});
