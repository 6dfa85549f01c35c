import { z } from 'zod';
import { activityEventEntity, type ActivityEventEntity } from '@gl/contracts';
import { api, eventually, gitlab, unique } from './e2e.helpers';

const events = z.array(activityEventEntity);

const names = (list: ActivityEventEntity[]): string[] =>
  list.map((e) => `${e.action_name}${e.target_type ? ` ${e.target_type}` : ''}`);

/**
 * The activity log through the gateway with the real client: actions on a private project (create it,
 * open an issue, comment, push a commit, add a member) appear in /projects/:id/events, /events and
 * /users/:id/events, only for callers who can see the project, and only with a token scope that allows it.
 */
describe('activity events with @gitbeaker/rest', () => {
  const root = gitlab();
  let dev: { id: number; username: string; token: string };
  let viewer: { id: number; username: string; token: string };
  let registryOnlyToken: string;
  let projectId: number;

  async function createUser(
    scopes: ('api' | 'read_user')[],
  ): Promise<{ id: number; username: string; token: string }> {
    const username = unique('ev');
    const user = await root.Users.create({
      username,
      name: `Events ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', scopes);
    return { id: user.id, username, token: token.token };
  }

  beforeAll(async () => {
    dev = await createUser(['api']);
    viewer = await createUser(['read_user']);
    registryOnlyToken = (await root.Users.createPersonalAccessToken(viewer.id, 'registry', ['read_registry']))
      .token;
    const client = gitlab(dev.token);
    const project = await client.Projects.create({ name: unique('events'), visibility: 'private' });
    projectId = project.id;
    const issue = await client.Issues.create(projectId, 'Activity issue');
    await client.IssueNotes.create(projectId, issue.iid, 'A comment');
    await client.Commits.create(projectId, 'main', 'First commit', [
      { action: 'create', filePath: 'README.md', content: 'hello' },
    ]);
  });

  it('When a developer acts on a project, then the project events show each action newest first', async () => {
    const client = gitlab(dev.token);
    const list = await eventually(
      async () => events.parse(await client.Events.all({ projectId })),
      (l) => l.length >= 4,
    );
    expect(names(list)).toEqual(['pushed new', 'commented on Note', 'opened Issue', 'created']);
    const [push, note, opened] = list;
    // Entities::Event's legacy title/data columns are null, and always present (gitbeaker passes them through).
    for (const event of list) expect(event).toMatchObject({ title: null, data: null });
    expect(push).toMatchObject({
      project_id: projectId,
      author_id: dev.id,
      author_username: dev.username,
      push_data: {
        action: 'created',
        ref: 'main',
        ref_type: 'branch',
        commit_count: 1,
        commit_title: 'First commit',
      },
    });
    expect(note).toMatchObject({
      target_title: 'Activity issue',
      note: { body: 'A comment', noteable_type: 'Issue' },
    });
    expect(opened).toMatchObject({ target_title: 'Activity issue', target_iid: 1, author: { id: dev.id } });
  });

  it("When the developer lists their own events and a user's events, then the same actions appear", async () => {
    const client = gitlab(dev.token);
    const own = await eventually(
      async () => events.parse(await client.Events.all()),
      (l) => l.length >= 4,
    );
    expect(names(own).slice(0, 4)).toEqual(['pushed new', 'commented on Note', 'opened Issue', 'created']);
    const byUser = events.parse(await client.Users.allEvents(dev.id, { targetType: 'issue' }));
    expect(names(byUser)).toEqual(['opened Issue']);
  });

  it("When an outsider reads the private project's events, then 404", async () => {
    const outsider = await createUser(['api']);
    expect((await api(`/projects/${projectId}/events`, { token: outsider.token })).status).toBe(404);
  });

  it('When a read_user token reads project events, then 403: read_user covers only the user endpoints, as in GitLab', async () => {
    expect((await api(`/projects/${projectId}/events`, { token: viewer.token })).status).toBe(403);
  });

  it('When a non-member looks, then nothing of the private project; once added, they see it and their "joined"', async () => {
    const viewerClient = gitlab(viewer.token);
    expect(events.parse(await viewerClient.Users.allEvents(dev.id))).toEqual([]);

    await root.ProjectMembers.add(projectId, 20, { userId: viewer.id });
    const seen = await eventually(
      async () => events.parse(await viewerClient.Users.allEvents(dev.id)),
      (l) => l.length >= 4,
    );
    expect(names(seen)).toEqual(['pushed new', 'commented on Note', 'opened Issue', 'created']);
    const all = await eventually(
      async () => events.parse(await viewerClient.Events.all({ scope: 'all' })),
      (l) => l.some((e) => e.action_name === 'joined'),
    );
    expect(all.find((e) => e.action_name === 'joined')).toMatchObject({
      project_id: projectId,
      author_id: viewer.id,
      target_type: null,
    });
  });

  it('When the token has neither read_user nor api scope, then 403 insufficient_scope on /events and /users/:id/events', async () => {
    for (const path of ['/events', `/users/${dev.id}/events`]) {
      const res = await api(path, { token: registryOnlyToken });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ error: 'insufficient_scope' });
    }
  });

  it('When a filter value is invalid, then 400 as Grape words it', async () => {
    const res = await api(`/projects/${projectId}/events?target_type=Issue&before=2020-02-30`, {
      token: dev.token,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'target_type does not have a valid value, before is invalid' });
  });
});
