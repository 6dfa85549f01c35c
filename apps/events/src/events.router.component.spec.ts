import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { gravatarUrl } from '@gl/service-kit';
import { testNamespace, testPrincipal, useHarness } from '@gl/testing';
import {
  activityList as events,
  branchPushed,
  D,
  groupEvent,
  ID,
  memberEvent,
  noteCreated,
  projectEvent,
  targetEvent,
  userCreated,
} from './testing/envelopes';
import { startEventsHarness } from './testing/events.harness';

const ALICE = testPrincipal({ id: 301, username: 'alice', name: 'Alice' });
const BOB = testPrincipal({ id: 302, username: 'bob', name: 'Bob' });
const DAVE = testPrincipal({ id: 304, username: 'dave', name: 'Dave' });
const alice = { id: ALICE.id, username: 'alice', name: 'Alice' };
const bob = { id: BOB.id, username: 'bob', name: 'Bob' };
const dave = { id: DAVE.id, username: 'dave', name: 'Dave' };

/** Group 40 (private) holds private project 11; 12 is public, 13 internal, 14 private with Alice as member. */
const GROUP = 40;
const [PRIVATE_IN_GROUP, PUBLIC, INTERNAL, PRIVATE_DIRECT] = [11, 12, 13, 14];

const titles = (body: unknown): (string | null)[] => events.parse(body).map((e) => e.target_title);

describe('activity events API', () => {
  const h = useHarness(startEventsHarness);

  beforeAll(async () => {
    const r = h.instance.recorder;
    for (const [id, username] of [
      [301, 'alice'],
      [302, 'bob'],
      [304, 'dave'],
    ] as const)
      await r.apply(userCreated(id, username, username[0]!.toUpperCase() + username.slice(1)));
    await r.apply(groupEvent(ID.groupCreated, GROUP, 'private'));
    await r.apply(
      projectEvent(ID.projectCreated, PRIVATE_IN_GROUP, { ancestorGroupIds: [GROUP], actor: alice }),
    );
    await r.apply(projectEvent(ID.projectCreated, PUBLIC, { visibility: 'public', actor: bob }));
    await r.apply(projectEvent(ID.projectCreated, INTERNAL, { visibility: 'internal', actor: bob }));
    await r.apply(projectEvent(ID.projectCreated, PRIVATE_DIRECT, { actor: bob }));
    await r.apply(memberEvent(ID.memberAdded, 'group', GROUP, ALICE.id, { accessLevel: 30 }));
    // Alice pushes to 14 below: a Developer (a Guest neither pushes nor sees pushes of a private project).
    await r.apply(memberEvent(ID.memberAdded, 'project', PRIVATE_DIRECT, ALICE.id, { accessLevel: 30 }));
    await r.apply(memberEvent(ID.memberAdded, 'project', PRIVATE_IN_GROUP, DAVE.id, { accessLevel: 30 }));
    // Only the events below: the setup's own (project created, joined) are dropped from the log.
    await h.instance.models.activities.deleteMany({});

    const at = (day: string) => ({ occurredAt: `${day}T12:00:00.000Z` });
    const issue = (title: string, iid: number) => ({
      targetId: 100 + iid,
      targetIid: iid,
      targetTitle: title,
    });
    await r.apply(
      targetEvent(D.issueOpened, PRIVATE_IN_GROUP, issue('a-private-group', 1), {
        actor: alice,
        ...at('2026-01-01'),
      }),
    );
    await r.apply(
      targetEvent(D.issueOpened, PUBLIC, issue('a-public', 2), { actor: alice, ...at('2026-01-02') }),
    );
    await r.apply(
      targetEvent(D.issueClosed, INTERNAL, issue('a-internal', 3), { actor: alice, ...at('2026-01-03') }),
    );
    await r.apply({ ...noteCreated(PUBLIC), actor: alice, occurredAt: '2026-01-04T12:00:00.000Z' });
    await r.apply({
      ...branchPushed(PRIVATE_DIRECT, { commitTitle: 'a-push' }),
      actor: alice,
      occurredAt: '2026-01-05T12:00:00.000Z',
    });
    await r.apply(
      targetEvent(D.issueOpened, PUBLIC, issue('b-public', 4), { actor: bob, ...at('2026-01-06') }),
    );
    await r.apply(
      targetEvent(D.issueOpened, PRIVATE_IN_GROUP, issue('d-private-group', 5), {
        actor: dave,
        ...at('2026-01-07'),
      }),
    );
    await r.apply(
      targetEvent(DOMAIN_EVENT_TYPES.boards.milestoneOpened, null, issue('group-milestone', 6), {
        actor: alice,
        groupId: GROUP,
        ...at('2026-01-08'),
      }),
    );
  });

  describe('GET /events', () => {
    it("When Alice lists her events, then every one of hers newest first, in GitLab's shape", async () => {
      const res = await h.call('/events', { as: ALICE });
      expect(res.status).toBe(200);
      expect(titles(res.body)).toEqual([
        'group-milestone',
        null,
        'Broken build',
        'a-internal',
        'a-public',
        'a-private-group',
      ]);
      expect(res.headers.get('x-total')).toBe('6');
      const [, push, note, closed] = events.parse(res.body);
      expect(closed).toEqual({
        id: expect.any(Number) as number,
        title: null,
        project_id: INTERNAL,
        action_name: 'closed',
        target_id: 103,
        target_iid: 3,
        target_type: 'Issue',
        author_id: ALICE.id,
        data: null,
        target_title: 'a-internal',
        created_at: '2026-01-03T12:00:00.000Z',
        author: {
          id: ALICE.id,
          username: 'alice',
          name: 'Alice',
          state: 'active',
          locked: false,
          // userEventFields' address, alice@x.test: the same Gravatar URL as the gateway's.
          avatar_url: gravatarUrl('alice@x.test'),
          web_url: 'http://localhost/alice',
        },
        imported: false,
        imported_from: 'none',
        author_username: 'alice',
      });
      expect(note).toMatchObject({
        action_name: 'commented on',
        target_type: 'Note',
        target_id: 501,
        note: {
          id: 501,
          body: 'Looks good',
          attachment: null,
          author: { id: ALICE.id, username: 'alice' },
          system: false,
          noteable_id: 77,
          noteable_type: 'Issue',
          noteable_iid: 3,
        },
      });
      expect(push).toMatchObject({
        action_name: 'pushed to',
        target_type: null,
        target_id: null,
        push_data: {
          commit_count: 1,
          action: 'pushed',
          ref_type: 'branch',
          ref: 'main',
          commit_from: '1'.repeat(40),
          commit_to: '2'.repeat(40),
          commit_title: 'a-push',
          ref_count: null,
        },
      });
      expect(push).not.toHaveProperty('note');
      expect(closed).not.toHaveProperty('push_data');
    });

    it('When Alice asks for scope=all, then events of the projects she is a member of, by anyone', async () => {
      const res = await h.call('/events?scope=all', { as: ALICE });
      expect(titles(res.body)).toEqual(['d-private-group', null, 'a-private-group']);
    });

    it('When the caller is anonymous, then 401', async () => {
      expect((await h.call('/events', { as: null })).status).toBe(401);
    });

    it('When Bob lists his events, then only his own', async () => {
      expect(titles((await h.call('/events', { as: BOB })).body)).toEqual(['b-public']);
    });
  });

  describe('GET /users/:user_id/events', () => {
    it('When Bob looks at Alice, then only events of projects and groups he can see, pages never short', async () => {
      const all = await h.call('/users/alice/events', { as: BOB });
      expect(titles(all.body)).toEqual(['Broken build', 'a-internal', 'a-public']);
      expect(all.headers.get('x-total')).toBe('3');
      const page2 = await h.call(`/users/${ALICE.id}/events?per_page=2&page=2`, { as: BOB });
      expect(titles(page2.body)).toEqual(['a-public']);
      expect(page2.headers.get('x-total-pages')).toBe('2');
      expect(page2.headers.get('x-prev-page')).toBe('1');
      expect(page2.headers.get('link')).toContain('rel="first"');
    });

    it('When Dave (member of the group project only) looks at Alice, then the group project events too', async () => {
      const res = await h.call('/users/ALICE/events', { as: DAVE });
      expect(titles(res.body)).toEqual(['Broken build', 'a-internal', 'a-public', 'a-private-group']);
    });

    it('When an administrator looks at Alice, then everything', async () => {
      expect(events.parse((await h.call('/users/alice/events')).body)).toHaveLength(6);
    });

    it('When a page is presented, then its author comes from the copy that found the user (one read of it)', async () => {
      const find = jest.spyOn(h.instance.models.users, 'find');
      const findOne = jest.spyOn(h.instance.models.users, 'findOne');
      try {
        const res = await h.call('/users/alice/events?per_page=2', { as: BOB });
        expect(events.parse(res.body).map((e) => e.author)).toEqual([
          expect.objectContaining({ id: ALICE.id, username: 'alice', name: 'Alice' }),
          expect.objectContaining({ id: ALICE.id, username: 'alice', name: 'Alice' }),
        ]);
        expect(findOne).toHaveBeenCalledTimes(1);
        expect(find).not.toHaveBeenCalled();
      } finally {
        find.mockRestore();
        findOne.mockRestore();
      }
    });

    it('When the user is unknown, then 404 User Not Found', async () => {
      const res = await h.call('/users/nobody/events', { as: BOB });
      expect(res).toMatchObject({ status: 404, body: { message: '404 User Not Found' } });
      expect((await h.call('/users/999999/events', { as: BOB })).status).toBe(404);
    });
  });

  describe('GET /projects/:id/events', () => {
    const privateNs = testNamespace({
      kind: 'project',
      id: PRIVATE_IN_GROUP,
      visibility: 'private',
      accessLevel: 30,
    });

    it('When a member lists a private project, then its events', async () => {
      const res = await h.call(`/projects/${PRIVATE_IN_GROUP}/events`, { as: DAVE, ns: privateNs });
      expect(titles(res.body)).toEqual(['d-private-group', 'a-private-group']);
    });

    it('When a stranger reaches a private project without access, then 404 Project Not Found', async () => {
      const res = await h.call(`/projects/${PRIVATE_IN_GROUP}/events`, {
        as: BOB,
        ns: { ...privateNs, accessLevel: 0 },
      });
      expect(res).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    });

    it('When anyone lists a public project, then its events', async () => {
      const ns = testNamespace({ kind: 'project', id: PUBLIC, visibility: 'public', accessLevel: 0 });
      expect(titles((await h.call(`/projects/${PUBLIC}/events`, { as: null, ns })).body)).toEqual([
        'b-public',
        'Broken build',
        'a-public',
      ]);
    });
  });

  describe('filters', () => {
    const list = async (query: string) => titles((await h.call(`/events?${query}`, { as: ALICE })).body);

    it('When filtering by action, then the stored action matches', async () => {
      expect(await list('action=commented')).toEqual(['Broken build']);
      expect(await list('action=pushed')).toEqual([null]);
      expect(await list('action=closed')).toEqual(['a-internal']);
      expect(await list('action=created')).toEqual(['group-milestone', 'a-public', 'a-private-group']);
    });

    it('When filtering by target_type, then the class name matches exactly', async () => {
      expect(await list('target_type=issue')).toEqual(['a-internal', 'a-public', 'a-private-group']);
      expect(await list('target_type=note')).toEqual(['Broken build']);
      expect(await list('target_type=milestone')).toEqual(['group-milestone']);
      expect(await list('target_type=merge_request')).toEqual([]);
    });

    it('When before and after are given, then both days are excluded', async () => {
      expect(await list('after=2026-01-02&before=2026-01-05')).toEqual(['Broken build', 'a-internal']);
      expect(await list('before=2026-01-02')).toEqual(['a-private-group']);
    });

    it('When before and after are date-times, then the range is [after, before), offsets included', async () => {
      expect(await list('after=2026-01-03T12:00:00Z&before=2026-01-04T12:00:00Z')).toEqual(['a-internal']);
      expect(await list('after=2026-01-03T12:00:00.001Z&before=2026-01-04T12:00:00.001Z')).toEqual([
        'Broken build',
      ]);
      expect(await list('after=2026-01-03T13:00:00%2B01:00&before=2026-01-03T13:00:00.001%2B01:00')).toEqual([
        'a-internal',
      ]);
    });

    it('When a project member who reads every event filters its events, then pages, totals and next pages follow', async () => {
      const ns = testNamespace({ kind: 'project', id: PUBLIC, visibility: 'public', accessLevel: 50 });
      const project = async (query: string) => {
        const res = await h.call(`/projects/${PUBLIC}/events?${query}`, { as: ALICE, ns });
        return {
          titles: titles(res.body),
          total: res.headers.get('x-total'),
          next: res.headers.get('x-next-page'),
        };
      };
      expect(await project('target_type=issue')).toEqual({
        titles: ['b-public', 'a-public'],
        total: '2',
        next: '',
      });
      expect(await project('action=commented')).toEqual({ titles: ['Broken build'], total: '1', next: '' });
      expect(await project('action=created&target_type=issue&sort=asc')).toEqual({
        titles: ['a-public', 'b-public'],
        total: '2',
        next: '',
      });
      expect(await project('target_type=issue&per_page=1')).toEqual({
        titles: ['b-public'],
        total: '2',
        next: '2',
      });
      expect(await project('after=2026-01-02&before=2026-01-06')).toEqual({
        titles: ['Broken build'],
        total: '1',
        next: '',
      });
      expect(await project('target_type=merge_request')).toEqual({ titles: [], total: '0', next: '' });
    });

    it('When sort=asc, then oldest first', async () => {
      expect(await list('sort=asc&per_page=2')).toEqual(['a-private-group', 'a-public']);
    });

    it.each([
      ['target_type=Issue', 'target_type does not have a valid value'],
      ['target_type=wiki', 'target_type does not have a valid value'],
      ['action=opened', 'action does not have a valid value'],
      ['sort=up', 'sort does not have a valid value'],
      ['before=2026-13-01', 'before is invalid'],
      ['after=yesterday', 'after is invalid'],
      ['after=2026-01-03T12:00:00', 'after is invalid'],
      [
        'action=x&target_type=y',
        'action does not have a valid value, target_type does not have a valid value',
      ],
    ])('When %s, then 400 "%s"', async (query, error) => {
      for (const path of ['/events', '/users/alice/events']) {
        expect(await h.call(`${path}?${query}`, { as: ALICE })).toMatchObject({
          status: 400,
          body: { error },
        });
      }
    });
  });
});
