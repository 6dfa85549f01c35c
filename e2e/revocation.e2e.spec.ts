import { z } from 'zod';
import { activityEventEntity } from '@gl/contracts';
import { api, eventually, unique } from './e2e.helpers';

const events = z.array(activityEventEntity);

async function json<T>(response: Response, status: number): Promise<T> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

/**
 * Through the whole stack: the gateway removes a member, and the events service, which learns of it
 * through the event bus, refuses that user the project's events on the very next request.
 */
describe('revocation through the stack', () => {
  let user: { id: number; token: string };
  let projectId: number;

  const asUser = (path: string) => api(path, { token: user.token });
  const projectIdsIn = async (path: string): Promise<number[]> =>
    events.parse(await json(await asUser(path), 200)).map((e) => e.project_id!);
  const post = (path: string, body: unknown) =>
    api(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    const username = unique('revoked');
    const created = await json<{ id: number }>(
      await post('/users', {
        username,
        name: `Revoked ${username}`,
        email: `${username}@example.com`,
        password: 'correct-horse-battery-staple',
      }),
      201,
    );
    const token = await json<{ token: string }>(
      await post(`/users/${created.id}/personal_access_tokens`, { name: 'e2e', scopes: ['api'] }),
      201,
    );
    user = { id: created.id, token: token.token };
    const group = await json<{ id: number }>(
      await post('/groups', { name: unique('rg'), path: unique('rg') }),
      201,
    );
    projectId = (
      await json<{ id: number }>(await post('/projects', { path: unique('rp'), namespace_id: group.id }), 201)
    ).id;
  });

  it.each([1, 2])(
    'When a member is removed (round %i), then their very next requests no longer see the project or its events',
    async () => {
      await json(await post(`/projects/${projectId}/members`, { user_id: user.id, access_level: 30 }), 201);
      const issue = await api(`/projects/${projectId}/issues`, {
        token: user.token,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Seen by members only' }),
      });
      expect(issue.status).toBe(201);
      // The activity log is fed through the bus: wait until the member sees their issue everywhere.
      await eventually(
        async () => [
          ...(await projectIdsIn(`/projects/${projectId}/events`)),
          ...(await projectIdsIn(`/users/${user.id}/events`)),
          ...(await projectIdsIn('/events?scope=all')),
        ],
        (ids) => ids.filter((id) => id === projectId).length >= 3,
      );
      expect(await projectIdsIn(`/users/${user.id}/events`)).toContain(projectId);

      const removed = await api(`/projects/${projectId}/members/${user.id}`, { method: 'DELETE' });
      expect(removed.status).toBe(204);

      const projectEvents = await asUser(`/projects/${projectId}/events`);
      expect(projectEvents.status).toBe(404);
      expect(await projectEvents.json()).toEqual({ message: '404 Project Not Found' });
      expect(await projectIdsIn(`/users/${user.id}/events`)).not.toContain(projectId);
      expect(await projectIdsIn('/events')).not.toContain(projectId);
      expect(await projectIdsIn('/events?scope=all')).not.toContain(projectId);
    },
  );

  it('When a member of a private project in a public group is removed, then their next group issue list leaves its issues out', async () => {
    const group = await json<{ id: number }>(
      await post('/groups', { name: unique('rpg'), path: unique('rpg'), visibility: 'public' }),
      201,
    );
    const project = await json<{ id: number }>(
      await post('/projects', { path: unique('rpp'), namespace_id: group.id, visibility: 'private' }),
      201,
    );
    await json(await post(`/projects/${project.id}/members`, { user_id: user.id, access_level: 30 }), 201);
    const issue = await json<{ id: number }>(
      await post(`/projects/${project.id}/issues`, { title: 'Listed for members only' }),
      201,
    );
    const groupIssueIds = async () =>
      z
        .array(z.object({ id: z.number() }))
        .parse(await json(await asUser(`/groups/${group.id}/issues`), 200))
        .map((i) => i.id);
    // Read twice: the second answer may come from what the service kept of the first.
    expect(await groupIssueIds()).toContain(issue.id);
    expect(await groupIssueIds()).toContain(issue.id);

    const removed = await api(`/projects/${project.id}/members/${user.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    expect(await groupIssueIds()).not.toContain(issue.id);
  });
});
