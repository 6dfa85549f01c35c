import { z } from 'zod';
import { DURABLES, EVENT_TYPES, paramError, personalSnippetEntity } from '@gl/contracts';
import {
  OWNER,
  ROOT,
  STRANGER,
  gatewayEvent,
  projectEventFields,
  startServiceHarness,
  testPrincipal,
  useHarness,
} from '@gl/testing';
import { createDiscussionsApp } from '../app';
import { projectNamespace } from '../testing/discussions.harness';
import { memberEventFields } from '../testing/memberships';

const snippets = z.array(personalSnippetEntity);
let counter = 0;
/** A user of its own per test: lists of "my snippets" then hold only what the test made. */
const freshUser = () => testPrincipal({ id: 5000 + counter++ });

describe('Personal snippets and the lists across snippets (lib/api/snippets.rb)', () => {
  // Lenient: `raw` answers plain text, not JSON.
  const h = useHarness(() =>
    startServiceHarness({
      service: 'discussions',
      createApp: createDiscussionsApp,
      caller: { lenientJson: true },
    }),
  );

  async function create(
    as: ReturnType<typeof testPrincipal>,
    visibility: 'private' | 'internal' | 'public',
    extra: Record<string, unknown> = {},
  ) {
    const res = await h.call('POST', '/snippets', {
      ns: null,
      as,
      json: {
        title: `${visibility} one`,
        file_name: 'a.txt',
        content: `${visibility}!`,
        visibility,
        ...extra,
      },
    });
    expect(res.status).toBe(201);
    return personalSnippetEntity.parse(res.body);
  }

  const get = (path: string, as: ReturnType<typeof testPrincipal> | null, query?: Record<string, string>) =>
    h.call('GET', path, { ns: null, as, query });
  const ids = (body: unknown) => snippets.parse(body).map((s) => s.id);

  it('When a signed-in user creates one, then 201 with no project, internal by default, instance URLs', async () => {
    const author = freshUser();
    const res = await h.call('POST', '/snippets', {
      ns: null,
      as: author,
      json: { title: 'Mine', description: 'd', file_name: 'x.py', content: 'print(1)' },
    });
    expect(res.status).toBe(201);
    const snippet = personalSnippetEntity.parse(res.body);
    expect(snippet).toMatchObject({
      title: 'Mine',
      description: 'd',
      visibility: 'internal',
      project_id: null,
      file_name: 'x.py',
      author: { id: author.id },
    });
    expect(snippet.web_url).toMatch(new RegExp(`/-/snippets/${snippet.id}$`));
    expect(snippet.raw_url).toBe(`${snippet.web_url}/raw`);
    expect(snippet.files).toEqual([{ path: 'x.py', raw_url: `${snippet.web_url}/raw/main/x.py` }]);
    const raw = await get(`/snippets/${snippet.id}/raw`, author);
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(raw.text).toBe('print(1)');
  });

  it('When anonymous, then the lists and writes are 401; a public snippet is read, others are 404 Snippet', async () => {
    const author = freshUser();
    const open = await create(author, 'public');
    const internal = await create(author, 'internal');
    for (const path of ['/snippets', '/snippets/public', '/snippets/all']) {
      const res = await get(path, null);
      expect(res).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    }
    const post = await h.call('POST', '/snippets', { ns: null, as: null, json: { title: 'x' } });
    expect(post.status).toBe(401);
    expect((await get(`/snippets/${open.id}`, null)).status).toBe(200);
    expect((await get(`/snippets/${open.id}/raw`, null)).text).toBe('public!');
    const hidden = await get(`/snippets/${internal.id}`, null);
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Snippet Not Found' } });
    expect((await get(`/snippets/${internal.id}/raw`, null)).status).toBe(404);
  });

  it("When others read by id, then private is the author's and admins', internal any signed-in user's", async () => {
    const author = freshUser();
    const other = freshUser();
    const secret = await create(author, 'private');
    const internal = await create(author, 'internal');
    expect((await get(`/snippets/${secret.id}`, author)).status).toBe(200);
    expect((await get(`/snippets/${secret.id}`, ROOT)).status).toBe(200);
    expect(await get(`/snippets/${secret.id}`, other)).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });
    expect((await get(`/snippets/${secret.id}/raw`, other)).status).toBe(404);
    expect((await get(`/snippets/${internal.id}`, other)).status).toBe(200);
    expect((await get('/snippets/999999', author)).status).toBe(404);
    expect(await get('/snippets/abc', author)).toMatchObject({
      status: 400,
      body: { error: 'id is invalid' },
    });
    // lib/api/snippets.rb: `requires :id, type: Integer`, then `find_by_id` → not_found!('Snippet').
    for (const id of ['0', '-1', '99999999999999999999']) {
      expect(await get(`/snippets/${id}`, author)).toMatchObject({
        status: 404,
        body: { message: '404 Snippet Not Found' },
      });
    }
  });

  it("When listed, then /snippets is the caller's own, /public everyone's public, /all what the caller sees", async () => {
    const author = freshUser();
    const other = freshUser();
    const [secret, internal, open] = [
      await create(author, 'private'),
      await create(author, 'internal'),
      await create(author, 'public'),
    ];
    const theirs = await create(other, 'private');

    const mine = await get('/snippets', author);
    expect(mine.status).toBe(200);
    expect(ids(mine.body)).toEqual([open.id, internal.id, secret.id]);
    expect(ids((await get('/snippets', other)).body)).toEqual([theirs.id]);

    const publicIds = ids((await get('/snippets/public', other, { per_page: '100' })).body);
    expect(publicIds).toContain(open.id);
    expect(publicIds).not.toContain(internal.id);
    expect(publicIds).not.toContain(secret.id);

    const all = ids((await get('/snippets/all', other, { per_page: '100' })).body);
    expect(all).toEqual(expect.arrayContaining([open.id, internal.id, theirs.id]));
    expect(all).not.toContain(secret.id);
    expect(ids((await get('/snippets/all', ROOT, { per_page: '100' })).body)).toContain(secret.id);
  });

  it('When a list is paged or windowed, then GitLab pagination headers and created_after/before apply', async () => {
    const author = freshUser();
    const first = await create(author, 'private');
    const second = await create(author, 'private');
    const page = await get('/snippets', author, { per_page: '1', page: '2' });
    expect(page.headers.get('x-total')).toBe('2');
    expect(page.headers.get('x-total-pages')).toBe('2');
    expect(page.headers.get('x-page')).toBe('2');
    expect(page.headers.get('link')).toContain('rel="first"');
    expect(ids(page.body)).toEqual([first.id]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(ids((await get('/snippets', author, { created_after: future })).body)).toEqual([]);
    expect(ids((await get('/snippets', author, { created_before: future })).body)).toEqual([
      second.id,
      first.id,
    ]);
    const bad = await get('/snippets', author, { created_after: 'soon' });
    expect(bad.status).toBe(400);
    expect(paramError.parse(bad.body)).toEqual({ error: 'created_after is invalid' });
  });

  it('When the author edits one, then fields and files change; others get 404; bad bodies are 400 and 422', async () => {
    const author = freshUser();
    const other = freshUser();
    const snippet = await create(author, 'public', {
      file_name: undefined,
      content: undefined,
      files: [
        { file_path: 'one.txt', content: '1' },
        { file_path: 'two.txt', content: '2' },
      ],
    });
    expect(snippet.files.map((f) => f.path)).toEqual(['one.txt', 'two.txt']);
    const p = `/snippets/${snippet.id}`;
    const put = (json: unknown, as = author) => h.call('PUT', p, { ns: null, as, json });

    const edited = await put({
      title: 'Renamed',
      visibility: 'internal',
      files: [{ action: 'move', previous_path: 'one.txt', file_path: 'zero.txt', content: '0' }],
    });
    expect(edited.status).toBe(200);
    expect(personalSnippetEntity.parse(edited.body)).toMatchObject({
      title: 'Renamed',
      visibility: 'internal',
      file_name: 'two.txt',
    });
    expect((await get(`${p}/files/main/zero.txt/raw`, other)).text).toBe('0');
    expect((await get(`${p}/raw`, other)).text).toBe('2');

    expect(await put({ title: 'x' }, other)).toMatchObject({
      status: 404,
      body: { message: '404 Snippet Not Found' },
    });
    expect(await put({})).toMatchObject({
      status: 400,
      body: {
        error:
          'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided',
      },
    });
    expect(await put({ content: 'c' })).toMatchObject({
      status: 400,
      body: {
        message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' },
      },
    });
    expect(await put({ files: [{ action: 'delete', file_path: 'nope' }] })).toMatchObject({
      status: 422,
      body: { message: { error: 'Snippet actions have invalid data' } },
    });
    expect(
      await put({ files: [{ action: 'move', previous_path: 'two.txt', file_path: 'a/../../b' }] }),
    ).toMatchObject({ status: 400, body: { error: 'files[0][file_path] should be a valid file path' } });
    const nested = await put({ files: [{ action: 'create', file_path: 'dir/n.txt', content: 'n' }] });
    expect(personalSnippetEntity.parse(nested.body).files.map((f) => f.path)).toContain('dir/n.txt');
    expect((await get(`${p}/files/main/dir%2Fn.txt/raw`, other)).text).toBe('n');
    expect(await get(`${p}/files/main/..%2Fx/raw`, author)).toMatchObject({
      status: 400,
      body: { error: 'file_path should be a valid file path' },
    });
    expect(await put({ visibility: 'secret' })).toMatchObject({
      status: 400,
      body: { error: 'visibility does not have a valid value' },
    });
    expect((await h.call('PUT', p, { ns: null, as: null, json: { title: 'x' } })).status).toBe(401);
  });

  it('When a snippet is deleted, then only its author may (others 404), 204, and it is gone', async () => {
    const author = freshUser();
    const snippet = await create(author, 'public');
    const p = `/snippets/${snippet.id}`;
    expect((await h.call('DELETE', p, { ns: null, as: freshUser() })).status).toBe(404);
    expect((await h.call('DELETE', p, { ns: null, as: null })).status).toBe(401);
    expect((await h.call('DELETE', p, { ns: null, as: author })).status).toBe(204);
    expect((await get(p, author)).status).toBe(404);
  });

  it("When creating with bad input, then Grape's 400s and the model's limits", async () => {
    const author = freshUser();
    const post = (json: unknown) => h.call('POST', '/snippets', { ns: null, as: author, json });
    expect(await post({ file_name: 'a', content: 'b' })).toMatchObject({
      status: 400,
      body: { error: 'title is missing' },
    });
    expect(await post({ title: ' ', file_name: 'a', content: '' })).toMatchObject({
      status: 400,
      body: { error: 'title is empty, content is empty' },
    });
    expect(await post({ title: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'files, content are missing, exactly one parameter must be provided' },
    });
    expect(await post({ title: 'x', content: 'y' })).toMatchObject({
      status: 400,
      body: { error: 'file_name is missing' },
    });
    expect(await post({ title: 't'.repeat(256), file_name: 'a', content: 'b' })).toMatchObject({
      status: 400,
      body: { message: { error: 'Title is too long (maximum is 255 characters)' } },
    });
    expect(await post({ title: 'x', files: [{ file_path: '../etc/passwd', content: 'x' }] })).toMatchObject({
      status: 400,
      body: { error: 'files[0][file_path] should be a valid file path' },
    });
    const eleven = Array.from({ length: 11 }, (_, i) => ({ file_path: `f${i}`, content: 'x' }));
    expect(await post({ title: 'x', files: eleven })).toMatchObject({
      status: 400,
      body: { message: { error: 'Repository files count over the limit' } },
    });
  });

  describe('project snippets seen through /snippets', () => {
    async function deliver(type: string, data: Record<string, unknown>) {
      const identity = h.instance.subscriptions!.find((s) => s.durable === DURABLES.discussionsIdentity)!;
      await identity.handle(gatewayEvent(type, data));
    }

    it('When a public project has a private and a public snippet, then members see both, others the public one', async () => {
      const fullPath = `g/snip${Date.now().toString(36)}`;
      const ns = projectNamespace({ visibility: 'public', fullPath });
      await deliver(
        EVENT_TYPES.identity.projectCreated,
        projectEventFields(ns.id, { visibility: 'public', ancestorGroupIds: ns.ancestorGroupIds, fullPath }),
      );
      await deliver(EVENT_TYPES.identity.memberAdded, memberEventFields('project', ns.id, OWNER.id, 50));
      const made = async (visibility: string) => {
        const res = await h.call('POST', `/projects/${ns.id}/snippets`, {
          ns,
          as: OWNER,
          json: { title: `p ${visibility}`, file_name: 'p.txt', content: 'p', visibility },
        });
        expect(res.status).toBe(201);
        return personalSnippetEntity.parse(res.body);
      };
      const secret = await made('private');
      const open = await made('public');

      const ownerAll = ids((await get('/snippets/all', OWNER, { per_page: '100' })).body);
      expect(ownerAll).toEqual(expect.arrayContaining([secret.id, open.id]));
      expect(ids((await get('/snippets', OWNER, { per_page: '100' })).body)).toEqual(
        expect.arrayContaining([secret.id, open.id]),
      );
      const strangerAll = ids((await get('/snippets/all', STRANGER, { per_page: '100' })).body);
      expect(strangerAll).toContain(open.id);
      expect(strangerAll).not.toContain(secret.id);
      expect(ids((await get('/snippets/public', STRANGER, { per_page: '100' })).body)).not.toContain(open.id);

      const byId = await get(`/snippets/${secret.id}`, OWNER);
      expect(byId.status).toBe(200);
      const read = personalSnippetEntity.parse(byId.body);
      expect(read.project_id).toBe(ns.id);
      expect(read.web_url).toMatch(new RegExp(`/${fullPath}/-/snippets/${secret.id}$`));
      expect((await get(`/snippets/${secret.id}`, STRANGER)).status).toBe(404);
      expect((await get(`/snippets/${open.id}/raw`, null)).text).toBe('p');

      // The project's snippets feature set to private, then disabled (only_include_projects_with_snippets_enabled).
      const setSnippets = (level: string) =>
        deliver(EVENT_TYPES.identity.projectUpdated, {
          ...projectEventFields(ns.id, {
            visibility: 'public',
            ancestorGroupIds: ns.ancestorGroupIds,
            fullPath,
            revision: Date.now(),
          }),
          features: { snippets: level },
        });
      await setSnippets('private');
      expect((await get(`/snippets/${open.id}`, STRANGER)).status).toBe(404);
      expect((await get(`/snippets/${open.id}`, OWNER)).status).toBe(200);
      expect(ids((await get('/snippets/all', STRANGER, { per_page: '100' })).body)).not.toContain(open.id);
      await setSnippets('disabled');
      expect((await get(`/snippets/${open.id}`, OWNER)).status).toBe(404);
      expect(ids((await get('/snippets', OWNER, { per_page: '100' })).body)).not.toContain(open.id);
      expect(ids((await get('/snippets/all', OWNER, { per_page: '100' })).body)).not.toContain(open.id);
    });
  });
});
