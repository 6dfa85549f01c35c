import { randomUUID } from 'node:crypto';
import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  EVENT_TYPES,
  discussionEntity,
  issueEntity,
  mergeRequestEntity,
  type EventEnvelope,
} from '@gl/contracts';
import { PoisonMessageError } from '@gl/service-kit';
import { z } from 'zod';
import { assigneesChangeNote, titleChangeNote, toSentence } from './system-notes';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, OWNER, useHarness } from '@gl/testing';

const IDENTITY = EVENT_TYPES.identity;

function userEvent(
  type: string,
  user: { id: number; username: string; name?: string },
  occurredAt = new Date().toISOString(),
): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt,
    producer: 'gateway',
    correlationId: 'identity-request',
    actor: null,
    projectId: null,
    groupId: null,
    data: {
      userId: user.id,
      username: user.username,
      name: user.name ?? user.username,
      state: 'active',
      email: `${user.username}@example.com`,
      emails: [],
      isAdmin: false,
    },
  };
}

describe('System note bodies', () => {
  it.each([
    ['Old', 'New', 'changed title from **{-Old-}** to **{+New+}**'],
    ['Bug', 'Bug in login', 'changed title from **Bug** to **Bug{+ in login+}**'],
    [
      'Fix the login page',
      'Fix the signup page',
      'changed title from **Fix the {-login-} page** to **Fix the {+signup+} page**',
    ],
    ['Draft: Feature', 'Feature', 'changed title from **{-Draft: -}Feature** to **Feature**'],
    ['Über café', 'Über cafés', 'changed title from **Über café** to **Über café{+s+}**'],
  ])('When the title changes from %j to %j, then the note marks the inline difference', (from, to, note) => {
    expect(titleChangeNote(from, to)).toBe(note);
  });

  it('When users are listed, then Rails to_sentence joins them', () => {
    expect([[], ['a'], ['a', 'b'], ['a', 'b', 'c']].map(toSentence)).toEqual([
      '',
      'a',
      'a and b',
      'a, b, and c',
    ]);
  });

  it("When assignees are added and removed, then GitLab's change_issuable_assignees wording", () => {
    expect(assigneesChangeNote(['ann'], [])).toBe('assigned to @ann');
    expect(assigneesChangeNote([], ['bob'])).toBe('unassigned @bob');
    expect(assigneesChangeNote(['ann', 'cy'], ['bob'])).toBe('assigned to @ann and @cy and unassigned @bob');
    expect(assigneesChangeNote([], [])).toBeNull();
  });
});

describe('Title and assignee system notes', () => {
  const h = useHarness(startDiscussionsHarness);
  const users = () => h.instance.subscriptions!.find((s) => s.durable === DURABLES.discussionsUsers)!;
  beforeAll(async () => {
    await users().handle(userEvent(IDENTITY.userCreated, { id: 31, username: 'ann' }));
    await users().handle(userEvent(IDENTITY.userCreated, { id: 32, username: 'bob' }));
  });

  async function systemNotes(ns: ReturnType<typeof projectNamespace>, path: string): Promise<string[]> {
    const res = await h.call('GET', `/projects/${ns.id}/${path}/discussions`, { ns });
    return z
      .array(discussionEntity)
      .parse(res.body)
      .flatMap((d) => d.notes)
      .filter((n) => n.system)
      .map((n) => n.body);
  }

  it('When subscribed, then it reads user created, updated and destroyed on its own durable', () => {
    expect(users().filterSubjects).toEqual([
      IDENTITY.userCreated,
      IDENTITY.userUpdated,
      IDENTITY.userDestroyed,
    ]);
  });

  it('When an issue title changes, then one "changed title" system note; the same title writes none', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Login broken' } });
    const res = await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { title: 'Signup broken' } });
    expect(issueEntity.parse(res.body).title).toBe('Signup broken');
    await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { title: 'Signup broken' } });
    expect(await systemNotes(ns, 'issues/1')).toEqual([
      'changed title from **{-Login-} broken** to **{+Signup+} broken**',
    ]);
  });

  it('When assignees are added, swapped and removed, then assigned/unassigned notes name them by @username', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Work' } });
    const put = (json: unknown) => h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json });
    await put({ assignee_ids: [31] });
    await put({ assignee_ids: [32] });
    await put({ assignee_ids: [31, 32] });
    const cleared = await put({ assignee_ids: [] });
    expect(issueEntity.parse(cleared.body).assignees).toEqual([]);
    await put({ assignee_ids: [] });
    expect(await systemNotes(ns, 'issues/1')).toEqual([
      'assigned to @ann',
      'assigned to @bob and unassigned @ann',
      'assigned to @ann',
      'unassigned @ann and @bob',
    ]);
  });

  it('When a merge request gets a new title and the acting user as assignee, then both notes', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      as: DEVELOPER,
      json: { source_branch: 'feature', target_branch: 'main', title: 'Feature' },
    });
    const iid = mergeRequestEntity.parse(created.body).iid;
    const res = await h.call('PUT', `/projects/${ns.id}/merge_requests/${iid}`, {
      ns,
      as: DEVELOPER,
      json: { title: 'Draft: Feature', assignee_ids: [DEVELOPER.id] },
    });
    expect(mergeRequestEntity.parse(res.body)).toMatchObject({ title: 'Draft: Feature' });
    expect(await systemNotes(ns, `merge_requests/${iid}`)).toEqual([
      'changed title from **Feature** to **{+Draft: +}Feature**',
      `assigned to @${DEVELOPER.username}`,
    ]);
  });

  it('When a username changes, then later notes use the new one; redelivered or older events change nothing', async () => {
    const before = new Date(Date.now() - 60_000).toISOString();
    const renamed = userEvent(IDENTITY.userUpdated, { id: 33, username: 'cy-new' });
    await users().handle(renamed);
    await users().handle(renamed); // redelivered
    await users().handle(userEvent(IDENTITY.userCreated, { id: 33, username: 'cy-old' }, before));
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, as: OWNER, json: { title: 'Rename' } });
    await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { assignee_ids: [33] } });
    expect(await systemNotes(ns, 'issues/1')).toEqual(['assigned to @cy-new']);
  });

  it('When title and assignee notes are written, then they publish no note.created (GitLab skips system notes)', async () => {
    const ns = projectNamespace();
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Quiet' } });
    await h.call('PUT', `/projects/${ns.id}/issues/1`, { ns, json: { title: 'Loud', assignee_ids: [31] } });
    expect(await systemNotes(ns, 'issues/1')).toHaveLength(2);
    const noteEvents = (await h.pendingEvents()).filter(
      (e) => e.type === DOMAIN_EVENT_TYPES.discussions.noteCreated && e.projectId === ns.id,
    );
    expect(noteEvents).toEqual([]);
  });

  it('When a user event has no valid data, then it is a poison message', async () => {
    const bad = { ...userEvent(IDENTITY.userCreated, { id: 34, username: 'x' }), data: { userId: 'x' } };
    await expect(users().handle(bad)).rejects.toBeInstanceOf(PoisonMessageError);
  });
});
