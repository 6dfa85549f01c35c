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
import { createDiscussionsApp } from '../app';
import { applyFileActions } from './snippet-files';
import { projectNamespace } from '../testing/discussions.harness';

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
    const files = [{ path: 'a.txt', content: 'x' }];
    expect(applyFileActions(files, [{ action: 'update', file_path: 'a.txt', content: 'y' }])).toEqual([
      { path: 'a.txt', content: 'y' },
    ]);
    expect(applyFileActions(files, [{ action: 'move', previous_path: 'a.txt', file_path: 'b.txt' }])).toEqual(
      [{ path: 'b.txt', content: 'x' }],
    );
    expect(
      applyFileActions(files, [
        { action: 'delete', file_path: 'a.txt' },
        { action: 'create', file_path: 'c.txt', content: 'z' },
      ]),
    ).toEqual([{ path: 'c.txt', content: 'z' }]);
    expect(applyFileActions(files, [{ action: 'create', file_path: 'b.txt', content: 'y' }])).toEqual([
      { path: 'a.txt', content: 'x' },
      { path: 'b.txt', content: 'y' },
    ]);
    expect(applyFileActions(files, [{ action: 'update', file_path: 'nope', content: 'y' }])).toBeNull();
    expect(applyFileActions(files, [{ action: 'update', file_path: 'a.txt' }])).toBeNull();
    expect(applyFileActions(files, [{ action: 'create', file_path: 'a.txt', content: 'y' }])).toBeNull();
    expect(applyFileActions(files, [{ action: 'delete', file_path: 'a.txt' }])).toBeNull();
    // SnippetRepository names a file created without a path after the highest snippetfile<n>.txt.
    const named = [{ path: 'snippetfile2.txt', content: 'x' }];
    expect(applyFileActions(named, [{ action: 'create', file_path: ' ', content: 'y' }])).toEqual([
      { path: 'snippetfile2.txt', content: 'x' },
      { path: 'snippetfile3.txt', content: 'y' },
    ]);
  });

  it('When a file name is not ASCII, then the entity and raw still answer; not well-formed UTF-16 is 400', async () => {
    const ns = projectNamespace();
    // A lone surrogate is no Unicode text: refused as the body's invalid UTF-8, before any handler.
    const lone = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      json: { title: 'S', file_name: '\ud800x.txt', content: 'hello' },
    });
    expect(lone.status).toBe(400);
    for (const fileName of ['d\u00e9j\u00e0 \u20ac \ud83d\ude00.md', 'a"b\\c']) {
      const res = await h.call('POST', `/projects/${ns.id}/snippets`, {
        ns,
        json: { title: 'S', file_name: fileName, content: 'hello' },
      });
      expect(res.status).toBe(201);
      const raw = await h.call('GET', `/projects/${ns.id}/snippets/${snippetEntity.parse(res.body).id}/raw`, {
        ns,
      });
      expect(raw.status).toBe(200);
      expect(raw.text).toBe('hello');
    }
  });

  it('When a snippet is created with a blank file_name, then its file is snippetfile1.txt', async () => {
    const ns = projectNamespace();
    const res = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      json: { title: 'S', file_name: '', content: 'hello' },
    });
    expect(res.status).toBe(201);
    expect(snippetEntity.parse(res.body)).toMatchObject({
      file_name: 'snippetfile1.txt',
      files: [{ path: 'snippetfile1.txt' }],
    });
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
    expect(bad.body).toEqual({ message: { error: 'Snippet actions have invalid data' } });
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

  it('When a snippet has several files, then the entity lists them by path, raw is the first, each file is read raw', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      json: {
        title: 'Many',
        visibility: 'private',
        files: [
          { file_path: 'b.rb', content: 'bee' },
          { file_path: 'a.md', content: 'ay' },
        ],
      },
    });
    expect(created.status).toBe(201);
    const snippet = snippetEntity.parse(created.body);
    const web = `${ns.webUrl}/-/snippets/${snippet.id}`;
    expect(snippet).toMatchObject({
      file_name: 'a.md',
      files: [
        { path: 'a.md', raw_url: `${web}/raw/main/a.md` },
        { path: 'b.rb', raw_url: `${web}/raw/main/b.rb` },
      ],
    });
    const p = `/projects/${ns.id}/snippets/${snippet.id}`;
    expect((await h.call('GET', `${p}/raw`, { ns })).text).toBe('ay');
    const file = await h.call('GET', `${p}/files/main/b.rb/raw`, { ns, as: GUEST });
    expect(file.status).toBe(200);
    expect(file.text).toBe('bee');
    const noRef = await h.call('GET', `${p}/files/other/b.rb/raw`, { ns });
    expect(noRef).toMatchObject({ status: 404, body: { message: '404 Reference Not Found' } });
    const noFile = await h.call('GET', `${p}/files/main/c.rb/raw`, { ns });
    expect(noFile).toMatchObject({ status: 404, body: { message: '404 File Not Found' } });

    const content = await h.call('PUT', p, { ns, json: { content: 'x' } });
    expect(content.status).toBe(400);
    expect(content.body).toEqual({
      message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' },
    });
    const edited = await h.call('PUT', p, {
      ns,
      json: {
        files: [
          { action: 'delete', file_path: 'a.md' },
          { action: 'update', file_path: 'b.rb', content: 'buzz' },
          { action: 'create', file_path: 'c.txt', content: 'see' },
        ],
      },
    });
    expect(edited.status).toBe(200);
    expect(snippetEntity.parse(edited.body).files.map((f) => f.path)).toEqual(['b.rb', 'c.txt']);
    expect((await h.call('GET', `${p}/raw`, { ns })).text).toBe('buzz');
  });

  it("When files are missing, blank, too many or given with content, then GitLab's 400s", async () => {
    const ns = projectNamespace();
    const post = (json: unknown) => h.call('POST', `/projects/${ns.id}/snippets`, { ns, json });
    const neither = await post({ title: 'x' });
    expect(neither).toMatchObject({
      status: 400,
      body: { error: 'files, content are missing, exactly one parameter must be provided' },
    });
    const both = await post({
      title: 'x',
      content: 'y',
      file_name: 'a',
      files: [{ file_path: 'a', content: 'b' }],
    });
    expect(both).toMatchObject({ status: 400, body: { error: 'files, content are mutually exclusive' } });
    const noName = await post({ title: 'x', content: 'y' });
    expect(noName).toMatchObject({ status: 400, body: { error: 'file_name is missing' } });
    const blank = await post({ title: 'x', files: [{ file_path: ' ', content: 'b' }] });
    expect(blank).toMatchObject({ status: 400, body: { error: 'files[0][file_path] is empty' } });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ file_path: `f${i}.txt`, content: 'x' }));
    const many = await post({ title: 'x', files: eleven });
    expect(many).toMatchObject({
      status: 400,
      body: { message: { error: 'Repository files count over the limit' } },
    });
    const ten = await post({ title: 'x', files: eleven.slice(0, 10) });
    expect(ten.status).toBe(201);
    const eleventh = await h.call('PUT', `/projects/${ns.id}/snippets/${snippetEntity.parse(ten.body).id}`, {
      ns,
      json: { files: [{ action: 'create', file_path: 'more.txt', content: 'x' }] },
    });
    expect(eleventh).toMatchObject({
      status: 400,
      body: { message: { error: 'Repository files count over the limit' } },
    });
  });
});
