import { join } from 'node:path';
import { api, gitlab, runClient, unique } from './e2e.helpers';

const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_snippets.py');

/**
 * Personal snippets (lib/api/snippets.rb) and snippets of several files through the gateway: with
 * @gitbeaker/rest (Snippets, ProjectSnippets), with python-gitlab (clients/python_gitlab_snippets.py),
 * and raw HTTP for the error bodies and the anonymous answers.
 */
describe('personal snippets with real clients', () => {
  const root = gitlab();

  async function otherUser(): Promise<{ id: number; token: string }> {
    const username = unique('snipu');
    const user = await root.Users.create({
      username,
      name: username,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    return { id: user.id, token: token.token };
  }

  it('When gitbeaker creates a snippet of several files, then show, showContent, file content, edit and remove work', async () => {
    const snippet = await root.Snippets.create(unique('gb'), {
      visibility: 'public',
      files: [
        { filePath: 'b.md', content: 'bee' },
        { filePath: 'a.md', content: 'ay' },
      ],
    });
    expect(snippet).toMatchObject({ project_id: null, file_name: 'a.md', visibility: 'public' });
    expect((snippet.files as { path: string }[]).map((f) => f.path)).toEqual(['a.md', 'b.md']);
    expect(await root.Snippets.show(snippet.id)).toMatchObject({ id: snippet.id });
    expect(await root.Snippets.showContent(snippet.id)).toBe('ay');
    expect(await root.Snippets.showRepositoryFileContent(snippet.id, 'main', 'b.md')).toBe('bee');

    const edited = await root.Snippets.edit(snippet.id, {
      description: 'Renamed',
      files: [
        { action: 'delete', filePath: 'a.md' },
        { action: 'update', filePath: 'b.md', content: 'buzz' },
      ],
    });
    expect(edited).toMatchObject({ description: 'Renamed', file_name: 'b.md' });
    expect(await root.Snippets.showContent(snippet.id)).toBe('buzz');
    // A path with a slash travels URL-encoded, one segment (gitbeaker encodes it as GitLab expects).
    await root.Snippets.edit(snippet.id, {
      files: [{ action: 'create', filePath: 'dir/c.md', content: 'sea' }],
    });
    expect(await root.Snippets.showRepositoryFileContent(snippet.id, 'main', 'dir/c.md')).toBe('sea');

    const mine = (await root.Snippets.all()) as { id: number }[];
    expect(mine.map((s) => s.id)).toContain(snippet.id);
    const published = (await root.Snippets.all({ public: true })) as { id: number }[];
    expect(published.map((s) => s.id)).toContain(snippet.id);

    // Anonymous callers read a public snippet by id; the lists need a token.
    expect((await api(`/snippets/${snippet.id}`, { token: null })).status).toBe(200);
    const list = await api('/snippets/public', { token: null });
    expect(list.status).toBe(401);
    expect(await list.json()).toEqual({ message: '401 Unauthorized' });

    await root.Snippets.remove(snippet.id);
    const gone = await api(`/snippets/${snippet.id}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: '404 Snippet Not Found' });
  });

  it('When another user reads and writes, then private is 404, internal is listed in /all, writes are 404', async () => {
    const other = await otherUser();
    const secret = await root.Snippets.create(unique('sec'), {
      visibility: 'private',
      files: [{ filePath: 's.txt', content: 's' }],
    });
    const internal = await root.Snippets.create(unique('int'), {
      files: [{ filePath: 'i.txt', content: 'i' }],
    });
    expect(internal.visibility).toBe('internal');
    const as = gitlab(other.token);
    const all = (await as.Snippets.all()) as { id: number }[];
    expect(all).toEqual([]);
    const seen = await api('/snippets/all?per_page=100', { token: other.token });
    expect(seen.headers.get('x-total')).not.toBeNull();
    const ids = ((await seen.json()) as { id: number }[]).map((s) => s.id);
    expect(ids).toContain(internal.id);
    expect(ids).not.toContain(secret.id);
    const hidden = await api(`/snippets/${secret.id}/raw`, { token: other.token });
    expect(hidden.status).toBe(404);
    const put = await api(`/snippets/${internal.id}`, {
      token: other.token,
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'mine now' }),
    });
    expect(put.status).toBe(404);
    expect(await put.json()).toEqual({ message: '404 Snippet Not Found' });
  });

  it('When a create or edit is wrong, then GitLab 400s and 422 with their bodies', async () => {
    const post = (body: unknown) =>
      api('/snippets', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const neither = await post({ title: 'x' });
    expect(neither.status).toBe(400);
    expect(await neither.json()).toEqual({
      error: 'files, content are missing, exactly one parameter must be provided',
    });
    const many = await post({
      title: 'x',
      files: Array.from({ length: 11 }, (_, i) => ({ file_path: `f${i}`, content: 'x' })),
    });
    expect(many.status).toBe(400);
    expect(await many.json()).toEqual({ message: { error: 'Repository files count over the limit' } });
    const snippet = await root.Snippets.create(unique('bad'), {
      files: [
        { filePath: 'a', content: 'a' },
        { filePath: 'b', content: 'b' },
      ],
    });
    const put = (body: unknown) =>
      api(`/snippets/${snippet.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const content = await put({ content: 'c' });
    expect(content.status).toBe(400);
    expect(await content.json()).toEqual({
      message: { error: 'To update Snippets with multiple files, you must use the `files` parameter' },
    });
    const bad = await put({ files: [{ action: 'update', file_path: 'zzz', content: 'y' }] });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ message: { error: 'Snippet actions have invalid data' } });
  });

  it('When a project snippet has several files, then gitbeaker ProjectSnippets shows them and /snippets/:id finds it', async () => {
    const path = unique('snipg');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const project = await root.Projects.create({ name: 'app', namespaceId: group.id });
    const snippet = await root.ProjectSnippets.create(project.id, 'Two', {
      visibility: 'private',
      files: [
        { filePath: 'x.rb', content: 'x' },
        { filePath: 'y.rb', content: 'y' },
      ],
    });
    expect((snippet.files as { path: string }[]).map((f) => f.path)).toEqual(['x.rb', 'y.rb']);
    expect(await root.ProjectSnippets.showContent(project.id, snippet.id)).toBe('x');
    const byId = await root.Snippets.show(snippet.id);
    expect(byId).toMatchObject({ id: snippet.id, project_id: project.id });
    const other = await otherUser();
    expect((await api(`/snippets/${snippet.id}`, { token: other.token })).status).toBe(404);
  });

  it('When python-gitlab creates, lists, reads, saves and deletes personal snippets, then each step shows', () => {
    expect(runClient(PYTHON, [CLIENT, 'personal'])).toEqual({
      status: 0,
      output: { ok: true, checked: ['personal'] },
      stderr: '',
    });
  });
});
