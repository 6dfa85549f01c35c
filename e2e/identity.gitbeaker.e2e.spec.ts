import { api, gitlab, unique } from './e2e.helpers';

/**
 * The identity catalogue through the real gateway with a real GitLab client (gitbeaker), as users and
 * every later test set things up.
 */
describe('identity catalogue with @gitbeaker/rest', () => {
  const root = gitlab();

  async function createUserWithToken(): Promise<{ id: number; username: string; token: string }> {
    const username = unique('dev');
    const user = await root.Users.create({
      username,
      name: `Dev ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    return { id: user.id, username, token: token.token };
  }

  it('When root creates a user and a token, then the user can authenticate with it', async () => {
    const dev = await createUserWithToken();
    const me = await gitlab(dev.token).Users.showCurrentUser();
    expect(me).toMatchObject({ id: dev.id, username: dev.username });
    const shown = await root.Users.show(dev.id);
    expect(shown).toMatchObject({ id: dev.id, username: dev.username, state: 'active' });
  });

  it('When groups, subgroups and projects are created, then they resolve by id and by full path', async () => {
    const path = unique('grp');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const sub = await root.Groups.create('sub', 'sub', { parentId: group.id });
    expect(sub.full_path).toBe(`${path}/sub`);
    const project = await root.Projects.create({ name: 'proj', namespaceId: sub.id });
    expect(project.path_with_namespace).toBe(`${path}/sub/proj`);
    const byPath = await root.Projects.show(`${path}/sub/proj`);
    expect(byPath.id).toBe(project.id);
    const groupByPath = await root.Groups.show(`${path}/sub`);
    expect(groupByPath.id).toBe(sub.id);
  });

  it('When a member is added to a group, then they see its subgroups and projects; others get 404', async () => {
    const dev = await createUserWithToken();
    const outsider = await createUserWithToken();
    const path = unique('team');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const project = await root.Projects.create({ name: 'svc', namespaceId: group.id });

    await root.GroupMembers.add(group.id, 30, { userId: dev.id });
    const members = await root.GroupMembers.all(group.id);
    expect(members.map((m) => m.id)).toContain(dev.id);
    expect((await gitlab(dev.token).Projects.show(project.id)).id).toBe(project.id);

    const hidden = await api(`/projects/${project.id}`, { token: outsider.token });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: '404 Project Not Found' });

    const again = await api(`/groups/${group.id}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: dev.id, access_level: 30 }),
    });
    expect(again.status).toBe(409);
  });

  it('When a project member is added, updated and removed, then ProjectMembers reflects each step', async () => {
    const dev = await createUserWithToken();
    const project = await root.Projects.create({ name: unique('p') });
    await root.ProjectMembers.add(project.id, 20, { userId: dev.id });
    await root.ProjectMembers.edit(project.id, dev.id, 40);
    expect((await root.ProjectMembers.show(project.id, dev.id)).access_level).toBe(40);
    await root.ProjectMembers.remove(project.id, dev.id);
    const gone = await api(`/projects/${project.id}/members/${dev.id}`);
    expect(gone.status).toBe(404);
  });

  it('When listing with per_page, then gitbeaker follows the Link headers across pages', async () => {
    const prefix = unique('many');
    for (let i = 0; i < 5; i++) await root.Projects.create({ name: `${prefix}-${i}` });
    const all = await root.Projects.all({ search: prefix, perPage: 2 });
    expect(all).toHaveLength(5);
    const first = await api(`/projects?search=${prefix}&per_page=2`);
    expect(first.headers.get('x-total')).toBe('5');
    expect(first.headers.get('x-total-pages')).toBe('3');
    expect(first.headers.get('link')).toMatch(/rel="next"/);
  });

  it("When a project is starred, unstarred and deleted, then GitLab's statuses come back", async () => {
    const project = await root.Projects.create({ name: unique('star') });
    await root.Projects.star(project.id);
    expect((await root.Projects.show(project.id)).star_count).toBe(1);
    await root.Projects.unstar(project.id);
    const deleted = await api(`/projects/${project.id}`, { method: 'DELETE' });
    expect(deleted.status).toBe(202);
    expect(await deleted.json()).toEqual({ message: '202 Accepted' });
  });
});
