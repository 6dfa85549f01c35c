import { join } from 'node:path';
import { api, gitlab, runClient, unique } from './e2e.helpers';

/**
 * The administrators' user endpoints and the user calls a new user of python-gitlab or gitbeaker tries
 * first, through the whole stack. python-gitlab runs scenarios of clients/python_gitlab_identity_admin.py.
 */
const PYTHON = '/usr/bin/python3';
const CLIENT = join(__dirname, 'clients', 'python_gitlab_identity_admin.py');

function python(scenario: string): void {
  expect(runClient(PYTHON, [CLIENT, scenario])).toEqual({
    status: 0,
    output: { ok: true, checked: [scenario] },
    stderr: '',
  });
}

describe('identity: users with python-gitlab and gitbeaker', () => {
  const root = gitlab();

  async function newUser(): Promise<{ id: number; token: string }> {
    const username = unique('gbu');
    const user = await root.Users.create({
      username,
      name: `Gb ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    return { id: user.id, token: token.token };
  }

  it('When python-gitlab blocks, bans and deactivates users, then GitLab answers each call and refused tokens stop at once', () => {
    python('moderation');
  });

  it('When gitbeaker blocks a user, then their token answers 403 on the next call, and unblock restores it', async () => {
    const user = await newUser();
    expect((await gitlab(user.token).Users.showCurrentUser()).id).toBe(user.id);
    await root.Users.block(user.id);
    const refused = await api('/user', { token: user.token });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: '403 Forbidden - Your account has been blocked.' });
    // Forwarded routes refuse it too: the gateway authenticates every request.
    expect((await api('/events', { token: user.token })).status).toBe(403);
    await root.Users.unblock(user.id);
    expect((await gitlab(user.token).Users.showCurrentUser()).id).toBe(user.id);
  });

  it('When python-gitlab edits a profile, lists projects and memberships and deletes users, then each call works as on GitLab', () => {
    python('profile+delete');
  });

  it('When gitbeaker edits, lists and removes a user, then PUT answers the admin view and DELETE 204', async () => {
    const user = await newUser();
    const edited = await root.Users.edit(user.id, { bio: 'From gitbeaker', organization: 'ACME' });
    expect(edited).toMatchObject({ bio: 'From gitbeaker', organization: 'ACME', is_admin: false });
    const project = await gitlab(user.token).Projects.create({ name: unique('gbp') });
    const projects = await root.Users.allProjects(user.id);
    expect(projects.map((p) => p.id)).toEqual([project.id]);
    expect(await root.Users.allMemberships(user.id)).toEqual([
      expect.objectContaining({ source_id: project.id, source_type: 'Project', access_level: 50 }),
    ]);
    await root.Users.remove(user.id);
    const gone = await api(`/users/${user.id}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: '404 User Not Found' });
  });

  it('When python-gitlab manages e-mail addresses and personal access tokens, then each call works as on GitLab', () => {
    python('emails+tokens');
  });

  it('When gitbeaker adds an address and reads and revokes its own token, then self answers the request token', async () => {
    const user = await newUser();
    const client = gitlab(user.token);
    const address = `${unique('gbmail')}@example.com`;
    const email = await client.UserEmails.add(address);
    expect(await client.UserEmails.show(email.id)).toMatchObject({ email: address, confirmed_at: null });
    const self = await client.PersonalAccessTokens.show();
    expect(self).toMatchObject({ user_id: user.id, name: 'e2e', active: true, revoked: false });
    expect((await client.PersonalAccessTokens.all()).map((t) => t.id)).toEqual([self.id]);
    await client.PersonalAccessTokens.remove();
    const refused = await api('/user', { token: user.token });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      error: 'invalid_token',
      error_description: 'Token was revoked. You have to re-authorize from the user.',
    });
  });

  it('When python-gitlab lists descendant groups, skips groups, transfers groups and lists namespaces, then each call works as on GitLab', () => {
    python('groups');
  });

  it('When gitbeaker transfers a group and reads descendants and namespaces, then paths follow the move', async () => {
    const user = await newUser();
    const client = gitlab(user.token);
    const source = await client.Groups.create(unique('gbsrc'), unique('gbsrc'));
    const inner = await client.Groups.create('inner', 'inner', { parentId: source.id });
    const target = await client.Groups.create(unique('gbdst'), unique('gbdst'));
    const moved = await client.Groups.transfer(source.id, { groupId: target.id });
    expect(moved).toMatchObject({
      id: source.id,
      parent_id: target.id,
      full_path: `${target.path}/${source.path}`,
    });
    const below = await client.Groups.allDescendantGroups(target.id, {});
    expect(below.map((g) => g.id).sort()).toEqual([source.id, inner.id].sort());
    expect((await client.Groups.show(inner.id)).full_path).toBe(`${target.path}/${source.path}/inner`);
    const namespace = await client.Namespaces.show(target.id);
    expect(namespace).toMatchObject({
      kind: 'group',
      full_path: target.path,
      members_count_with_descendants: 1,
    });
    const refused = await api(`/groups/${target.id}/transfer`, {
      token: user.token,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: 'Transfer failed: Group is already a root group.' });
  });

  it('When python-gitlab switches project features off, transfers a project and lists its groups, then each call works as on GitLab', () => {
    python('projects');
  });

  it('When gitbeaker edits feature levels and transfers a project, then the project shows them and its groups follow', async () => {
    const user = await newUser();
    const client = gitlab(user.token);
    const project = await client.Projects.create({ name: unique('gbfeat') });
    const edited = await client.Projects.edit(project.id, {
      issuesAccessLevel: 'disabled',
      wikiAccessLevel: 'disabled',
    });
    expect(edited).toMatchObject({
      issues_enabled: false,
      issues_access_level: 'disabled',
      wiki_enabled: false,
    });
    const path = unique('gbpg');
    const group = await client.Groups.create(path, path);
    const moved = await client.Projects.transfer(project.id, group.id);
    expect(moved).toMatchObject({
      id: project.id,
      path_with_namespace: `${path}/${project.path}`,
    });
    const groups = await client.Projects.allGroups(project.id);
    expect(groups.map((g) => g.id)).toEqual([group.id]);
  });

  it('When python-gitlab saves a group label, then the deprecated PUT /groups/:id/labels with its name updates it', () => {
    python('group label save');
  });
});
