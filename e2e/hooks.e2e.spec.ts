import { groupHookEntity, projectHookEntity } from '@gl/contracts';
import { api, gitlab, runClient, unique } from './e2e.helpers';

/**
 * Project and group webhooks through the gateway: @gitbeaker/rest ProjectHooks and GroupHooks, python-gitlab
 * 3.12's `project.hooks` and `group.hooks` (Debian's interpreter, as e2e/python-gitlab.e2e.spec.ts uses), the
 * refusals in GitLab's order and the URL blocker. Nothing is delivered yet: only the management API.
 */
const PYTHON = '/usr/bin/python3';

/** python-gitlab's hook managers on a group and a project of their own, in one scenario. */
const PYTHON_SCENARIO = `
import json, os, secrets, time
import gitlab
gl = gitlab.Gitlab(os.environ["GL_URL"], private_token=os.environ["GL_TOKEN"])
gl.auth()
suffix = format(int(time.time() * 1000), "x") + secrets.token_hex(2)
group = gl.groups.create({"name": f"pyh{suffix}", "path": f"pyh{suffix}", "visibility": "private"})
project = gl.projects.create({"name": "app", "namespace_id": group.id})
hook = project.hooks.create({"url": "https://hooks.example.com/py", "issues_events": True, "token": "py-secret"})
assert hook.issues_events is True and hook.push_events is True, hook.attributes
assert "token" not in hook.attributes, hook.attributes
fetched = project.hooks.get(hook.id)
fetched.note_events = True
fetched.save()
assert project.hooks.get(hook.id).note_events is True
assert [h.id for h in project.hooks.list(all=True)] == [hook.id]
try:
    project.hooks.create({"url": "http://127.0.0.1:8080/"})
except gitlab.exceptions.GitlabCreateError as err:
    assert err.response_code == 422, err.response_code
else:
    raise AssertionError("a loopback URL was accepted")
project.hooks.delete(hook.id)
assert project.hooks.list(all=True) == []
ghook = group.hooks.create({"url": "https://hooks.example.com/group", "subgroup_events": True})
assert ghook.group_id == group.id and ghook.subgroup_events is True, ghook.attributes
group.hooks.delete(ghook.id)
print(json.dumps({"ok": True, "checked": ["project.hooks", "group.hooks"]}))
`;

describe('webhooks through the gateway', () => {
  const root = gitlab();
  let groupId: number;
  let projectId: number;
  let developer: { id: number; token: string };

  beforeAll(async () => {
    const path = unique('hooks');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    groupId = group.id;
    projectId = (await root.Projects.create({ name: 'app', namespaceId: groupId })).id;
    const username = unique('hookdev');
    const user = await root.Users.create({
      username,
      name: `Hook ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    developer = { id: user.id, token: token.token };
    await root.ProjectMembers.add(projectId, 30, { userId: user.id });
  });

  it('When gitbeaker adds, shows, edits, lists and removes a project hook, then the token is never returned', async () => {
    const created = await root.ProjectHooks.add(projectId, 'https://hooks.example.com/gb', {
      token: 'gb-secret',
      issuesEvents: true,
    });
    const hook = projectHookEntity.strict().parse(created);
    expect(hook).toMatchObject({ project_id: projectId, issues_events: true, push_events: true });
    expect(JSON.stringify(created)).not.toContain('gb-secret');
    const shown = projectHookEntity.parse(await root.ProjectHooks.show(projectId, hook.id));
    expect(shown).toEqual(hook);
    const edited = await root.ProjectHooks.edit(projectId, hook.id, 'https://hooks.example.com/gb2', {
      noteEvents: true,
    });
    expect(edited).toMatchObject({
      url: 'https://hooks.example.com/gb2',
      note_events: true,
      issues_events: true,
    });
    const listed = await root.ProjectHooks.all(projectId);
    expect(listed.map((h) => h.id)).toEqual([hook.id]);
    await root.ProjectHooks.remove(projectId, hook.id);
    expect(await root.ProjectHooks.all(projectId)).toEqual([]);
  });

  it('When gitbeaker manages a group hook on the ultimate stack, then it shows the group fields', async () => {
    const created = groupHookEntity.strict().parse(
      await root.GroupHooks.add(groupId, 'https://hooks.example.com/group', {
        memberEvents: true,
      } as never),
    );
    expect(created).toMatchObject({ group_id: groupId, member_events: true });
    expect((await root.GroupHooks.all(groupId)).map((h) => h.id)).toEqual([created.id]);
    await root.GroupHooks.remove(groupId, created.id);
  });

  it('When the caller has no token, is a Developer or cannot see the project, then 401, 403, 404', async () => {
    const path = `/projects/${projectId}/hooks`;
    expect((await api(path, { token: null })).status).toBe(401);
    const forbidden = await api(path, { token: developer.token });
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toEqual({ message: '403 Forbidden' });
    // A project member reads the project's group (GroupPolicy), so the group's hooks are a 403, not a 404.
    const groupHooks = await api(`/groups/${groupId}/hooks`, { token: developer.token });
    expect(groupHooks.status).toBe(403);
    const outsider = await api(`/projects/${projectId + 100000}/hooks`);
    expect(outsider.status).toBe(404);
  });

  it.each([
    ['http://127.0.0.1:8080/', 422, { error: 'Invalid url given' }],
    ['http://localhost/hook', 422, { error: 'Invalid url given' }],
    ['http://169.254.169.254/latest/meta-data', 422, { error: 'Invalid url given' }],
    ['ftp://hooks.example.com/', 422, { error: 'Invalid url given' }],
  ])('When a hook names %s, then %i as GitLab answers', async (url, status, body) => {
    const reply = await api(`/projects/${projectId}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    expect(reply.status).toBe(status);
    expect(await reply.json()).toEqual(body);
  });

  it('When the url is missing, then 400 url is missing', async () => {
    const reply = await api(`/projects/${projectId}/hooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ push_events: true }),
    });
    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual({ error: 'url is missing' });
  });

  it('When hooks are listed a page at a time, then the page headers count them', async () => {
    const path = unique('hookpages');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const project = await root.Projects.create({ name: 'app', namespaceId: group.id });
    for (const name of ['a', 'b', 'c'])
      await root.ProjectHooks.add(project.id, `https://hooks.example.com/${name}`);
    const reply = await api(`/projects/${project.id}/hooks?per_page=2&page=2`);
    expect(reply.status).toBe(200);
    expect(((await reply.json()) as unknown[]).length).toBe(1);
    expect(reply.headers.get('x-total')).toBe('3');
    expect(reply.headers.get('x-total-pages')).toBe('2');
  });

  it('When python-gitlab manages project and group hooks, then create, get, save, list and delete work', () => {
    expect(runClient(PYTHON, ['-c', PYTHON_SCENARIO])).toEqual({
      status: 0,
      output: { ok: true, checked: ['project.hooks', 'group.hooks'] },
      stderr: '',
    });
  });
});
