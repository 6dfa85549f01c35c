import { join } from 'node:path';
import { api, gitlab, runClient, unique } from './e2e.helpers';

const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_noteables.py');

/**
 * Project snippets changed, read raw and deleted through the gateway: with @gitbeaker/rest, with
 * python-gitlab (clients/python_gitlab_noteables.py), and raw HTTP for the error bodies.
 */
describe('project snippets with real clients', () => {
  const root = gitlab();
  let projectId: number;

  beforeAll(async () => {
    const path = unique('nots');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    projectId = (await root.Projects.create({ name: 'app', namespaceId: group.id })).id;
  });

  it('When gitbeaker edits a snippet with files actions, then showContent is the new content; remove deletes it', async () => {
    const snippet = await root.ProjectSnippets.create(projectId, 'Notes', {
      files: [{ filePath: 'a.md', content: 'one' }],
      visibility: 'private',
    });
    const edited = await root.ProjectSnippets.edit(projectId, snippet.id, {
      description: 'Renamed',
      files: [{ action: 'move', previousPath: 'a.md', filePath: 'b.md', content: 'two' }],
    });
    expect(edited).toMatchObject({ description: 'Renamed', file_name: 'b.md' });
    expect(await root.ProjectSnippets.showContent(projectId, snippet.id)).toBe('two');
    await root.ProjectSnippets.remove(projectId, snippet.id);
    const gone = await api(`/projects/${projectId}/snippets/${snippet.id}/raw`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: '404 Snippet Not Found' });
  });

  it('When a PUT names nothing or a bad file action, then 400 and 422 with GitLab bodies', async () => {
    const snippet = await root.ProjectSnippets.create(projectId, 'S', {
      files: [{ filePath: 'x.txt', content: 'x' }],
    });
    const put = (body: unknown) =>
      api(`/projects/${projectId}/snippets/${snippet.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const none = await put({});
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({
      error:
        'content, description, files, file_name, title, visibility are missing, at least one parameter must be provided',
    });
    const bad = await put({ files: [{ action: 'update', file_path: 'nope.txt', content: 'y' }] });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({ message: { error: 'Snippet actions have invalid data' } });
    const anonymous = await api(`/projects/${projectId}/snippets/${snippet.id}`, {
      method: 'DELETE',
      token: null,
    });
    expect(anonymous.status).toBe(401);
  });

  it('When python-gitlab saves, reads content() and deletes a snippet, then each step shows', () => {
    expect(runClient(PYTHON, [CLIENT, 'snippet'])).toEqual({
      status: 0,
      output: { ok: true, checked: ['snippet'] },
      stderr: '',
    });
  });
});
