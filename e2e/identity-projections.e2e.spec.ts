import { api, eventually, gitlab, unique } from './e2e.helpers';

/**
 * What the services keep of the identity the gateway owns, through the whole stack: one avatar_url for a
 * user in every service, a project's disabled features honoured where they are served, and a deleted
 * user's contributions shown as GitLab's Ghost User.
 */
describe('identity projections: avatars, project features, the Ghost User', () => {
  const root = gitlab();

  const json = async <T>(path: string, init: Parameters<typeof api>[1] = {}): Promise<T> =>
    (await (await api(path, init)).json()) as T;

  interface Summary {
    id: number;
    username: string;
    avatar_url: string | null;
  }

  async function memberAndIssue() {
    const username = unique('avu');
    const user = await root.Users.create({
      username,
      name: `Av ${username}`,
      email: `${username}@Example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = (await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api'])).token;
    const project = await root.Projects.create({ name: unique('avp'), visibility: 'public' });
    const added = await api(`/projects/${project.id}/members`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.id, access_level: 30 }),
    });
    expect(added.status).toBe(201);
    const issue = await gitlab(token).Issues.create(project.id, 'Written by the member');
    await gitlab(token).IssueNotes.create(project.id, issue.iid, 'A note of theirs');
    return { user, token, project, issue };
  }

  it("When a user writes in discussions, then every service shows the gateway's avatar_url for them", async () => {
    const { user, project, issue } = await memberAndIssue();
    const gatewayAvatar = (await json<Summary>(`/users/${user.id}`)).avatar_url;
    expect(gatewayAvatar).toMatch(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=80&d=identicon$/);

    const author = (await json<{ author: Summary }>(`/projects/${project.id}/issues/${issue.iid}`)).author;
    expect(author).toMatchObject({ id: user.id, avatar_url: gatewayAvatar });
    // Participants are read from discussions' own copy of users.
    const participants = await eventually(
      () => json<Summary[]>(`/projects/${project.id}/issues/${issue.iid}/participants`),
      (list) => list.some((u) => u.id === user.id),
    );
    expect(participants.find((u) => u.id === user.id)!.avatar_url).toBe(gatewayAvatar);
    // Events: the author from the events service's copy of users.
    const events = await eventually(
      () => json<{ author_id: number; author?: Summary }[]>(`/projects/${project.id}/events`),
      (list) => list.some((e) => e.author_id === user.id && e.author?.avatar_url === gatewayAvatar),
    );
    expect(events.find((e) => e.author_id === user.id)!.author!.avatar_url).toBe(gatewayAvatar);
  });

  it('When a project disables issues and merge requests, then discussions answers as GitLab does', async () => {
    const project = await root.Projects.create({ name: unique('feat'), visibility: 'public' });
    const issue = await root.Issues.create(project.id, 'Before the switch');
    const edited = await api(`/projects/${project.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ issues_enabled: false, merge_requests_access_level: 'disabled' }),
    });
    expect(edited.status).toBe(200);
    expect(await edited.json()).toMatchObject({ issues_enabled: false, merge_requests_enabled: false });

    // The switch reaches discussions through the identity events.
    const list = await eventually(
      async () => {
        const res = await api(`/projects/${project.id}/issues`);
        return { total: res.headers.get('x-total'), body: (await res.json()) as unknown[] };
      },
      (page) => page.body.length === 0,
    );
    expect(list.total).toBe('0');
    expect((await api(`/projects/${project.id}/issues/${issue.iid}`)).status).toBe(404);
    const created = await api(`/projects/${project.id}/issues`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'After' }),
    });
    expect(created.status).toBe(403);
    expect(await created.json()).toEqual({ message: '403 Forbidden' });
    expect((await api(`/projects/${project.id}/merge_requests`)).status).toBe(403);
  });

  it('When a user is deleted, then their issue and note show the Ghost User, and their events are deleted', async () => {
    const { user, project, issue } = await memberAndIssue();
    type Listed = { author_id: number; author_username: string | null }[];
    await eventually(
      () => json<Listed>(`/projects/${project.id}/events`),
      (list) => list.some((e) => e.author_id === user.id),
    );
    const removed = await api(`/users/${user.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    const ghost = { username: 'ghost', name: 'Ghost User' };
    const read = await eventually(
      () => json<{ author: Summary }>(`/projects/${project.id}/issues/${issue.iid}`),
      (body) => body.author.username === 'ghost',
    );
    expect(read.author).toMatchObject(ghost);
    const notes = await json<{ body: string; author: Summary }[]>(
      `/projects/${project.id}/issues/${issue.iid}/notes`,
    );
    expect(notes.find((n) => n.body === 'A note of theirs')!.author).toMatchObject(ghost);
    // GitLab deletes them: events.author_id is a loose foreign key with on_delete: async_delete
    // (config/gitlab_loose_foreign_keys.yml). The project's other events (its creation by root) stay.
    const events = await eventually(
      () => json<Listed>(`/projects/${project.id}/events`),
      (list) => list.every((e) => e.author_id !== user.id),
    );
    expect(events.length).toBeGreaterThan(0);
  });
});
