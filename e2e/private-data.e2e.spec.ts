import { z } from 'zod';
import {
  activityEventEntity,
  discussionEntity,
  issueEntity,
  mergeRequestEntity,
  noteEntity,
  type ActivityEventEntity,
} from '@gl/contracts';
import { api, eventually, gitlab, unique } from './e2e.helpers';

const events = z.array(activityEventEntity);

async function json(path: string, token: string, init: RequestInit = {}): Promise<unknown> {
  const res = await api(path, { ...init, token });
  expect([path, res.status]).toEqual([path, init.method === 'POST' ? 201 : 200]);
  return res.json();
}

const post = (path: string, token: string, body: Record<string, unknown>) =>
  json(path, token, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** Everything an event shows that could leak: its target title and its note's body. */
const texts = (list: ActivityEventEntity[]): string[] =>
  list.flatMap((e) => [e.target_title ?? '', e.note?.body ?? '']).filter(Boolean);

/**
 * Through the gateway, with the whole stack: a Guest of a private project sees no merge request titles in
 * its activity (every merge request endpoint refuses them too) and no internal note anywhere — not in the
 * notes, the threads, the issue's user_notes_count, nor any of the three event lists.
 */
describe('private data stays with those who may read it', () => {
  const root = gitlab();
  let dev: { id: number; token: string };
  let guest: { id: number; token: string };
  let projectId: number;
  let issueIid: number;

  async function createUser(): Promise<{ id: number; token: string }> {
    const username = unique('pd');
    const user = await root.Users.create({
      username,
      name: `Private data ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    return { id: user.id, token: token.token };
  }

  beforeAll(async () => {
    dev = await createUser();
    guest = await createUser();
    const project = await gitlab(dev.token).Projects.create({
      name: unique('private'),
      visibility: 'private',
    });
    projectId = project.id;
    await root.ProjectMembers.add(projectId, 10, { userId: guest.id });
    const p = `/projects/${projectId}`;
    mergeRequestEntity.parse(
      await post(`${p}/merge_requests`, dev.token, {
        source_branch: 'feature',
        target_branch: 'main',
        title: 'Secret MR title',
      }),
    );
    const issue = issueEntity.parse(await post(`${p}/issues`, dev.token, { title: 'Visible issue' }));
    issueIid = issue.iid;
    await post(`${p}/issues/${issueIid}/notes`, dev.token, { body: 'public comment' });
    const internal = noteEntity.parse(
      await post(`${p}/issues/${issueIid}/notes`, dev.token, { body: 'internal remark', internal: true }),
    );
    expect(internal).toMatchObject({ internal: true, confidential: true });
  });

  it('When the guest lists the project, user and own events, then no merge request title and no internal note', async () => {
    // The owner sees both once the activity log has them (events of different documents may arrive in any order).
    const full = await eventually(
      async () => events.parse(await json(`/projects/${projectId}/events`, dev.token)),
      (list) => ['Secret MR title', 'internal remark'].every((text) => texts(list).includes(text)),
    );
    expect(texts(full)).toEqual(expect.arrayContaining(['Secret MR title', 'internal remark']));

    const lists = {
      project: `/projects/${projectId}/events`,
      user: `/users/${dev.id}/events`,
      all: '/events?scope=all',
    };
    for (const [name, path] of Object.entries(lists)) {
      const seen = events.parse(await json(path, guest.token));
      const shown = texts(seen);
      expect({
        list: name,
        mergeRequests: seen.filter((e) => e.target_type === 'MergeRequest').length,
        mrTitle: shown.includes('Secret MR title'),
        internalNote: shown.includes('internal remark'),
        publicComment: shown.includes('public comment'),
      }).toEqual({ list: name, mergeRequests: 0, mrTitle: false, internalNote: false, publicComment: true });
    }
  });

  it('When the guest reads the issue, its notes and threads, then the internal note is not there, nor counted', async () => {
    const p = `/projects/${projectId}/issues/${issueIid}`;
    const notes = z.array(noteEntity).parse(await json(`${p}/notes`, guest.token));
    expect(notes.map((n) => n.body)).toEqual(['public comment']);
    const threads = z.array(discussionEntity).parse(await json(`${p}/discussions`, guest.token));
    expect(threads.flatMap((t) => t.notes.map((n) => n.body))).toEqual(['public comment']);
    expect(issueEntity.parse(await json(p, guest.token)).user_notes_count).toBe(1);
    expect(issueEntity.parse(await json(p, dev.token)).user_notes_count).toBe(2);
    // …and the merge requests themselves stay closed to the guest, as before.
    expect((await api(`/projects/${projectId}/merge_requests`, { token: guest.token })).status).toBe(403);
  });
});
