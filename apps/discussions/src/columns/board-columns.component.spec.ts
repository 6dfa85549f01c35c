import { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  EVENT_TYPES,
  issueEntity,
  type BoardDefinedData,
  type NamespaceContext,
} from '@gl/contracts';
import {
  GUEST,
  OWNER,
  REPORTER,
  STRANGER,
  groupEventFields,
  projectEventFields,
  useHarness,
} from '@gl/testing';
import type { Model } from 'mongoose';
import { createBeyondLimitMemo } from '@gl/service-kit';
import { createBoardColumnsStore } from './board-columns.store';
import type { NoteableDoc, NoteableWordDoc } from '../noteables/noteable.model';
import { labelKeyWordsMigration } from '../migrations/label-key-words';
import { noteableWordsMigration } from '../migrations/noteable-words';
import { assigneeKey, labelKey, withLabel } from '../noteables/word-filters';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

const ID = EVENT_TYPES.identity;
const issues = z.array(issueEntity);
let counter = 0;
const unique = (): string => `${Date.now().toString(36)}${counter++}`;

describe('Board lists: GET /groups/:id/boards/:board_id/lists/:list_id/issues and PUT .../issues/:issue_id/move', () => {
  const h = useHarness(startDiscussionsHarness);

  const deliver = (durable: string, type: string, data: Record<string, unknown>) =>
    h.deliver(type, data, durable);

  let boardIds = 50_000;

  /** A board as the boards service publishes it. */
  async function defineBoard(groupId: number, fields: Partial<BoardDefinedData> = {}, revision = 1) {
    const data: BoardDefinedData = {
      boardId: boardIds++,
      groupId,
      projectId: null,
      revision,
      deleted: false,
      milestoneId: null,
      assigneeId: null,
      labels: [],
      weight: null,
      lists: [],
      hideBacklogList: false,
      hideClosedList: false,
      ...fields,
    };
    await deliver(DURABLES.discussionsBoards, DOMAIN_EVENT_TYPES.boards.boardDefined, data);
    return data;
  }

  /** A private group with one project; OWNER owns the group, GUEST is its Guest, REPORTER its Reporter. */
  async function world() {
    const g = groupNamespace({ visibility: 'private' });
    await deliver(
      DURABLES.discussionsIdentity,
      ID.groupCreated,
      groupEventFields(g.id, { visibility: 'private', ancestorGroupIds: [] }),
    );
    const p = projectNamespace({
      visibility: 'private',
      ancestorGroupIds: [g.id],
      fullPath: `g/${unique()}`,
    });
    await deliver(
      DURABLES.discussionsIdentity,
      ID.projectCreated,
      projectEventFields(p.id, { visibility: 'private', ancestorGroupIds: [g.id], fullPath: p.fullPath }),
    );
    for (const [user, accessLevel] of [
      [OWNER, 50],
      [GUEST, 10],
      [REPORTER, 20],
    ] as const) {
      await deliver(DURABLES.discussionsIdentity, ID.memberAdded, {
        sourceType: 'group',
        sourceId: g.id,
        userId: user.id,
        accessLevel,
        expiresAt: null,
      });
    }
    const doing = `Doing${unique()}`;
    const review = `Review${unique()}`;
    const board = await defineBoard(g.id, {
      lists: [
        { id: 1, kind: 'label', targetId: 11, labelTitle: doing },
        { id: 2, kind: 'label', targetId: 12, labelTitle: review },
      ],
    });
    const open = async (title: string, extra: Record<string, unknown> = {}) => {
      const res = await h.call('POST', `/projects/${p.id}/issues`, {
        ns: p,
        level: 50,
        json: { title, ...extra },
      });
      expect(res.status).toBe(201);
      return issueEntity.parse(res.body);
    };
    return { g, p, board, doing, review, open };
  }

  const column = async (
    g: NamespaceContext,
    boardId: number,
    list: string | number,
    query = '',
    as = OWNER,
  ) => {
    const res = await h.call('GET', `/groups/${g.id}/boards/${boardId}/lists/${list}/issues${query}`, {
      ns: g,
      as,
      level: as === OWNER ? 50 : as === GUEST ? 10 : as === REPORTER ? 20 : 0,
    });
    return res;
  };
  const titlesOf = async (g: NamespaceContext, boardId: number, list: string | number) => {
    const res = await column(g, boardId, list, '?per_page=100');
    expect(res.status).toBe(200);
    return issues.parse(res.body).map((i) => i.title);
  };

  const move = (g: NamespaceContext, boardId: number, issueId: number, json: unknown, as = OWNER) =>
    h.call('PUT', `/groups/${g.id}/boards/${boardId}/issues/${issueId}/move`, {
      ns: g,
      as,
      level: as === OWNER ? 50 : as === GUEST ? 10 : as === REPORTER ? 20 : 0,
      json,
    });

  it('When a board list is read, then the open issues of its label, the backlog the rest, closed the closed; by position, paginated', async () => {
    const { g, p, board, doing, review, open } = await world();
    await open('a', { labels: doing });
    await open('b');
    await open('c', { labels: `${doing},other` });
    await open('d', { labels: review });
    const e = await open('e', { labels: doing });
    await h.call('PUT', `/projects/${p.id}/issues/${e.iid}`, {
      ns: p,
      level: 50,
      json: { state_event: 'close' },
    });
    expect(await titlesOf(g, board.boardId, 1)).toEqual(['a', 'c']);
    expect(await titlesOf(g, board.boardId, 2)).toEqual(['d']);
    expect(await titlesOf(g, board.boardId, 'backlog')).toEqual(['b']);
    expect(await titlesOf(g, board.boardId, 'closed')).toEqual(['e']);

    const first = await column(g, board.boardId, 1, '?per_page=1');
    expect(first.status).toBe(200);
    expect(issues.parse(first.body).map((i) => i.title)).toEqual(['a']);
    expect(first.headers.get('x-total')).toBe('2');
    expect(first.headers.get('x-next-page')).toBe('2');
    const second = await column(g, board.boardId, 1, '?per_page=1&page=2');
    expect(issues.parse(second.body).map((i) => i.title)).toEqual(['c']);
  });

  it('When the board is scoped, then every list holds only issues of its scope', async () => {
    const { g, doing, open } = await world();
    const team = `Team${unique()}`;
    const scoped = await defineBoard(g.id, {
      labels: [team],
      assigneeId: OWNER.id,
      lists: [{ id: 3, kind: 'label', targetId: 11, labelTitle: doing }],
    });
    await open('in scope', { labels: `${team},${doing}`, assignee_ids: [OWNER.id] });
    await open('no team', { labels: doing, assignee_ids: [OWNER.id] });
    await open('not assigned', { labels: `${team},${doing}` });
    await open('backlog in scope', { labels: team, assignee_ids: [OWNER.id] });
    expect(await titlesOf(g, scoped.boardId, 3)).toEqual(['in scope']);
    expect(await titlesOf(g, scoped.boardId, 'backlog')).toEqual(['backlog in scope']);
  });

  it("When the board has assignee lists, then each holds its user's open issues and the backlog none of them", async () => {
    const { g, open } = await world();
    const board = await defineBoard(g.id, {
      lists: [
        { id: 5, kind: 'assignee', targetId: REPORTER.id, labelTitle: null },
        { id: 6, kind: 'assignee', targetId: GUEST.id, labelTitle: null },
      ],
    });
    await open('reporter', { assignee_ids: [REPORTER.id] });
    await open('both', { assignee_ids: [GUEST.id, REPORTER.id] });
    await open('owner', { assignee_ids: [OWNER.id] });
    await open('nobody');
    expect(await titlesOf(g, board.boardId, 5)).toEqual(['reporter', 'both']);
    expect(await titlesOf(g, board.boardId, 6)).toEqual(['both']);
    expect(await titlesOf(g, board.boardId, 'backlog')).toEqual(['owner', 'nobody']);
  });

  it('When the caller or the path is wrong, then 401, 404 Group, Board and List, and 400 for a bad list id', async () => {
    const { g, board } = await world();
    const other = groupNamespace({ visibility: 'private' });
    const foreign = await defineBoard(other.id);
    expect((await column(g, board.boardId, 1, '', null as never)).status).toBe(401);
    const stranger = await column(g, board.boardId, 1, '', STRANGER);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual({ message: '404 Group Not Found' });
    for (const id of [foreign.boardId, 999_999]) {
      const res = await column(g, id, 1);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Board Not Found' });
    }
    const list = await column(g, board.boardId, 77);
    expect(list.status).toBe(404);
    expect(list.body).toEqual({ message: '404 List Not Found' });
    const bad = await column(g, board.boardId, 'nope');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'list_id is invalid' });
    // A deleted board is gone; an older definition delivered late does not bring it back.
    await defineBoard(g.id, { boardId: board.boardId, deleted: true }, 3);
    await defineBoard(g.id, { boardId: board.boardId }, 2);
    expect((await column(g, board.boardId, 1)).status).toBe(404);
  });

  it('When a card moves, then its labels and state change as the lists say, with the close and reopen events and notes, and it is placed', async () => {
    const { g, p, board, doing, review, open } = await world();
    const one = await open('one', { labels: doing });
    const two = await open('two', { labels: doing });
    const card = await open('card', { labels: 'keep' });

    const toDoing = await move(g, board.boardId, card.id, {
      from_list_id: 'backlog',
      to_list_id: 1,
      move_after_id: one.id,
      move_before_id: two.id,
    });
    expect(toDoing.status).toBe(200);
    expect(issueEntity.parse(toDoing.body).labels.sort()).toEqual([doing, 'keep'].sort());
    expect(await titlesOf(g, board.boardId, 1)).toEqual(['one', 'card', 'two']);

    const toReview = await move(g, board.boardId, card.id, { from_list_id: 1, to_list_id: 2 });
    expect(issueEntity.parse(toReview.body).labels.sort()).toEqual(['keep', review].sort());

    const closed = await move(g, board.boardId, card.id, { from_list_id: 2, to_list_id: 'closed' });
    expect(closed.status).toBe(200);
    const closedIssue = issueEntity.parse(closed.body);
    expect(closedIssue.state).toBe('closed');
    expect(closedIssue.labels).toEqual(['keep']);
    expect(await titlesOf(g, board.boardId, 'closed')).toEqual(['card']);

    const reopened = await move(g, board.boardId, card.id, { from_list_id: 'closed', to_list_id: 1 });
    expect(issueEntity.parse(reopened.body).state).toBe('opened');
    expect(await titlesOf(g, board.boardId, 1)).toContain('card');

    const events = (await h.pendingEvents()).filter((e) => e.data.targetId === card.id).map((e) => e.type);
    // Each move's label change is also an `issue.updated` (webhooks' update action), beside the state events.
    expect(events).toEqual([
      DOMAIN_EVENT_TYPES.discussions.issueOpened,
      DOMAIN_EVENT_TYPES.discussions.issueUpdated,
      DOMAIN_EVENT_TYPES.discussions.issueUpdated,
      DOMAIN_EVENT_TYPES.discussions.issueClosed,
      DOMAIN_EVENT_TYPES.discussions.issueUpdated,
      DOMAIN_EVENT_TYPES.discussions.issueReopened,
      DOMAIN_EVENT_TYPES.discussions.issueUpdated,
    ]);
    const notes = await h.call('GET', `/projects/${p.id}/issues/${card.iid}/notes?sort=asc`, {
      ns: p,
      level: 50,
    });
    expect(
      (notes.body as { body: string; system: boolean }[]).filter((n) => n.system).map((n) => n.body),
    ).toEqual(['closed', 'reopened']);
  });

  it('When a move is not allowed, then 401, 403 for a Guest, 404 for an unknown or foreign issue, 409 when it left the list, 400 without lists', async () => {
    const { g, board, doing, open } = await world();
    const card = await open('card', { labels: doing });
    const body = { from_list_id: 1, to_list_id: 2 };
    expect((await move(g, board.boardId, card.id, body, null as never)).status).toBe(401);
    const guest = await move(g, board.boardId, card.id, body, GUEST);
    expect(guest.status).toBe(403);
    expect(guest.body).toEqual({ message: '403 Forbidden' });
    const elsewhere = await world();
    const foreign = await elsewhere.open('foreign', { labels: doing });
    for (const id of [foreign.id, 9_999_999]) {
      const res = await move(g, board.boardId, id, body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: '404 Issue Not Found' });
    }
    const stale = await move(g, board.boardId, card.id, { from_list_id: 2, to_list_id: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ message: 'Issue is not in the list it is moved from' });
    const missing = await move(g, board.boardId, card.id, { from_list_id: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ error: 'to_list_id is missing' });
    const unknownList = await move(g, board.boardId, card.id, { from_list_id: 1, to_list_id: 99 });
    expect(unknownList.status).toBe(404);
    expect(unknownList.body).toEqual({ message: '404 List Not Found' });
    // A Reporter moves it.
    expect((await move(g, board.boardId, card.id, body, REPORTER)).status).toBe(200);
  });

  it('When two clients move one card at once, then it ends in exactly one list', async () => {
    const { g, board, doing, open } = await world();
    for (let round = 0; round < 3; round++) {
      const card = await open(`card ${round}`, { labels: doing });
      const [a, b] = await Promise.all([
        move(g, board.boardId, card.id, { from_list_id: 1, to_list_id: 2 }),
        move(g, board.boardId, card.id, { from_list_id: 1, to_list_id: 'closed' }),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const lists = await Promise.all(
        [1, 2, 'backlog', 'closed'].map(async (list) =>
          (await titlesOf(g, board.boardId, list)).includes(card.title),
        ),
      );
      expect(lists.filter(Boolean)).toHaveLength(1);
    }
  });
  it('When issues have no position, then they follow the positioned ones by id, across pages, counted in X-Total', async () => {
    const { g, board, doing, open } = await world();
    const a = await open('a', { labels: doing });
    await open('b', { labels: doing });
    const c = await open('c', { labels: doing });
    // Issues older than positions (and incidents opened from alerts) have none.
    const noteables = h.runtime.connection.collection('noteables');
    for (const id of [c.id, a.id]) {
      await noteables.updateOne(
        { _id: id as never },
        { $set: { relativePosition: null, positionScope: null } },
      );
    }
    expect(await titlesOf(g, board.boardId, 1)).toEqual(['b', 'a', 'c']);
    const pages = [];
    for (let page = 1; page <= 4; page++) {
      const res = await column(g, board.boardId, 1, `?per_page=1&page=${page}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe('3');
      pages.push(...issues.parse(res.body).map((i) => i.title));
    }
    expect(pages).toEqual(['b', 'a', 'c']);
  });

  /** Every page of a column by cursor, `perPage` at a time: the titles and each answer's headers. */
  async function walkByCursor(g: NamespaceContext, boardId: number, list: string | number, perPage: number) {
    const titles: string[] = [];
    const answers: { link: string | null; next: string | null; total: string | null }[] = [];
    let query = `?pagination=keyset&per_page=${perPage}`;
    for (let guard = 0; guard < 50; guard++) {
      const res = await column(g, boardId, list, query);
      expect(res.status).toBe(200);
      titles.push(...issues.parse(res.body).map((i) => i.title));
      const link = res.headers.get('link');
      const next = res.headers.get('x-next-cursor');
      answers.push({ link, next, total: res.headers.get('x-total') });
      if (!link) break;
      query = new URL(link.slice(1, link.indexOf('>'))).search;
    }
    return { titles, answers };
  }

  it('When a column is paged by cursor (pagination=keyset), then every issue once, in the offset order, across positioned and unpositioned ones', async () => {
    const { g, board, doing, open } = await world();
    const made = [];
    for (const title of ['a', 'b', 'c', 'd', 'e']) made.push(await open(title, { labels: doing }));
    const noteables = h.runtime.connection.collection('noteables');
    for (const issue of [made[0]!, made[3]!]) {
      await noteables.updateOne(
        { _id: issue.id as never },
        { $set: { relativePosition: null, positionScope: null } },
      );
    }
    const expected = await titlesOf(g, board.boardId, 1);
    expect(expected).toEqual(['b', 'c', 'e', 'a', 'd']);
    for (const perPage of [1, 2, 5, 20]) {
      const { titles, answers } = await walkByCursor(g, board.boardId, 1, perPage);
      expect(titles).toEqual(expected);
      for (const answer of answers) expect(answer.total).toBeNull();
      const last = answers[answers.length - 1]!;
      expect(last).toMatchObject({ link: null, next: null });
      for (const answer of answers.slice(0, -1)) {
        expect(answer.link).toMatch(/; rel="next"$/);
        // The cursor is padded base64 (GitLab's urlsafe_encode64): its `=` are escaped in the link's query.
        expect(answer.link).toContain(`cursor=${encodeURIComponent(answer.next!)}`);
        expect(answer.link).toContain(`per_page=${perPage}`);
      }
    }
  });

  it('When issues are added while a column is paged by cursor, then none already shown comes again and none before the cursor is skipped', async () => {
    const { g, board, doing, open } = await world();
    for (const title of ['a', 'b', 'c']) await open(title, { labels: doing });
    const first = await column(g, board.boardId, 1, '?pagination=keyset&per_page=2');
    expect(issues.parse(first.body).map((i) => i.title)).toEqual(['a', 'b']);
    await open('d', { labels: doing }); // a new issue goes to the end
    const cursor = first.headers.get('x-next-cursor')!;
    const rest = await column(g, board.boardId, 1, `?pagination=keyset&per_page=5&cursor=${cursor}`);
    expect(issues.parse(rest.body).map((i) => i.title)).toEqual(['c', 'd']);
    expect(rest.headers.get('link')).toBeNull();
  });

  it("When the cursor or the pagination is not one the server wrote, then 400 and GitLab's parameter message", async () => {
    const { g, board } = await world();
    const bad = [
      ['cursor=***', 'cursor is invalid'],
      ['cursor=bm90IGpzb24', 'cursor is invalid'],
      [
        `cursor=${Buffer.from('{"relative_position":1,"id":2,"_kd":"p"}').toString('base64url')}`,
        'cursor is invalid',
      ],
      [
        `cursor=${Buffer.from('{"relative_position":"1","id":2,"_kd":"n"}').toString('base64url')}`,
        'cursor is invalid',
      ],
      [`cursor=${Buffer.from('[1,2]').toString('base64url')}`, 'cursor is invalid'],
      [`cursor=${'A'.repeat(400)}`, 'cursor is invalid'],
    ];
    for (const [query, message] of bad) {
      const res = await column(g, board.boardId, 1, `?pagination=keyset&${query}`);
      expect({ query, status: res.status, body: res.body }).toEqual({
        query,
        status: 400,
        body: { error: message },
      });
    }
    const unknown = await column(g, board.boardId, 1, '?pagination=sideways');
    expect(unknown.status).toBe(400);
  });

  it('When labels hold regular expression characters, then a list matches its label literally', async () => {
    const { g, open } = await world();
    const odd = `C++ (v2).*${unique()}`;
    const board = await defineBoard(g.id, {
      lists: [{ id: 5, kind: 'label', targetId: 15, labelTitle: odd }],
    });
    await open('odd', { labels: odd });
    await open('near', { labels: `C++ (v2)${unique()}` });
    expect(await titlesOf(g, board.boardId, 5)).toEqual(['odd']);
    expect(await titlesOf(g, board.boardId, 'backlog')).toEqual(['near']);
  });

  it('When issues were stored before labelKeys existed, then the migration step puts them back in their lists', async () => {
    const { g, board, doing, open } = await world();
    const old = await open('old', { labels: doing });
    await open('new', { labels: doing });
    const noteables = h.runtime.connection.collection('noteables');
    await noteables.updateOne({ _id: old.id as never }, { $unset: { labelKeys: '' } });
    expect(await titlesOf(g, board.boardId, 1)).toEqual(['new']);
    await labelKeyWordsMigration(3).up(h.runtime.connection, h.runtime.logger);
    await labelKeyWordsMigration(3).up(h.runtime.connection, h.runtime.logger);
    expect(await titlesOf(g, board.boardId, 1)).toEqual(['old', 'new']);
    expect(await titlesOf(g, board.boardId, 'backlog')).toEqual([]);
  });

  it('When a column is read among the few issues of its label, then every window and total are those read along the column index', async () => {
    const { g, p, board, doing, open } = await world();
    const titles = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const made = [];
    for (const title of titles) made.push(await open(title, { labels: title < 'e' ? doing : 'other' }));
    // An entry that outlived its label (removed), and one that outlived its issue (deleted): both ignored.
    await h.call('PUT', `/projects/${p.id}/issues/${made[1]!.iid}`, {
      ns: p,
      level: 50,
      json: { remove_labels: doing },
    });
    await h.call('DELETE', `/projects/${p.id}/issues/${made[2]!.iid}`, { ns: p, level: 50 });
    const words = h.runtime.connection.model('NoteableWord') as Model<NoteableWordDoc>;
    await words.create({
      _id: `${labelKey(doing)}:${made[2]!.id}`,
      word: labelKey(doing),
      family: 'label',
      noteableId: made[2]!.id,
      touchedAt: new Date(),
    });
    expect(await titlesOf(g, board.boardId, 1)).toEqual(['a', 'd']);

    const model = h.runtime.connection.model('Noteable') as Model<NoteableDoc>;
    const filter = {
      $and: [{ kind: 'Issue' }, { projectId: { $in: [p.id] } }, { state: 'opened' }, withLabel(doing)],
    };
    const scope = `g${p.ancestorGroupIds[0]}`;
    const narrowed = createBoardColumnsStore({ noteables: model, noteableWords: words });
    const alongIndex = createBoardColumnsStore(
      { noteables: model, noteableWords: words },
      undefined,
      undefined,
      0,
    );
    for (const [skip, limit] of [
      [0, 1],
      [1, 1],
      [0, 5],
      [2, 2],
    ] as const) {
      const expected = await alongIndex.page(filter, scope, skip, limit);
      const got = await narrowed.page(filter, scope, skip, limit);
      expect(got.items.map((i) => i.title)).toEqual(expected.items.map((i) => i.title));
      expect({ total: got.total, hasNext: got.hasNext }).toEqual({
        total: expected.total,
        hasNext: expected.hasNext,
      });
    }
    // A word nobody has: nothing, at once.
    const nobodys = { $and: [...filter.$and, withLabel(`none${unique()}`)] };
    expect(await narrowed.page(nobodys, scope, 0, 5)).toEqual({
      items: [],
      total: 0,
      hasNext: false,
    });
  });

  it('When entries are missing (issues stored before they existed), then the migration step puts the issues back in their columns', async () => {
    const { g, board, doing, open } = await world();
    const a = await open('a', { labels: doing, assignee_ids: [OWNER.id] });
    const words = h.runtime.connection.model('NoteableWord') as Model<NoteableWordDoc>;
    await words.deleteMany({ noteableId: a.id });
    expect(await titlesOf(g, board.boardId, 1)).toEqual([]);
    await noteableWordsMigration(7).up(h.runtime.connection, h.runtime.logger);
    await noteableWordsMigration(7).up(h.runtime.connection, h.runtime.logger);
    expect(await titlesOf(g, board.boardId, 1)).toEqual(['a']);
    const entries = await words.find({ noteableId: a.id }).lean();
    expect(entries.map((e) => e.word).sort()).toEqual([labelKey(doing), assigneeKey(OWNER.id)].sort());
  });

  it('When a column holds more issues than the count limit, then no total, and whether a next page exists', async () => {
    const { p, open } = await world();
    for (const title of ['a', 'b', 'c', 'd']) await open(title);
    const model = h.runtime.connection.model('Noteable') as Model<NoteableDoc>;
    const words = h.runtime.connection.model('NoteableWord') as Model<NoteableWordDoc>;
    const filter = { $and: [{ kind: 'Issue' }, { projectId: { $in: [p.id] } }, { state: 'opened' }] };
    const scope = `g${p.ancestorGroupIds[0]}`;
    const limited = createBoardColumnsStore({ noteables: model, noteableWords: words }, 3);
    const first = await limited.page(filter, scope, 0, 2);
    expect(first.items.map((i) => i.title)).toEqual(['a', 'b']);
    expect(first).toMatchObject({ total: null, hasNext: true });
    expect(await limited.page(filter, scope, 2, 2)).toMatchObject({ total: null, hasNext: false });
    const counted = createBoardColumnsStore({ noteables: model, noteableWords: words }, 4);
    expect(await counted.page(filter, scope, 0, 2)).toMatchObject({ total: 4, hasNext: true });
    expect(await counted.page(filter, scope, 4, 2)).toMatchObject({ items: [], total: 4, hasNext: false });
  });

  it('When a column past the count limit shrinks, then its total shows again once the memo has expired', async () => {
    const { p, open } = await world();
    for (const title of ['a', 'b', 'c', 'd']) await open(title);
    const model = h.runtime.connection.model('Noteable') as Model<NoteableDoc>;
    const words = h.runtime.connection.model('NoteableWord') as Model<NoteableWordDoc>;
    const filter = { $and: [{ kind: 'Issue' }, { projectId: { $in: [p.id] } }, { state: 'opened' }] };
    const scope = `g${p.ancestorGroupIds[0]}`;
    const clock = { at: 0 };
    const memo = createBeyondLimitMemo({ ttlMs: 60_000, now: () => clock.at });
    const store = createBoardColumnsStore({ noteables: model, noteableWords: words }, 3, memo);
    expect(await store.page(filter, scope, 0, 2)).toMatchObject({ total: null, hasNext: true });
    await model.updateOne({ projectId: p.id, title: 'd' }, { $set: { state: 'closed' } });
    // Within the minute the column is still taken to be past the limit; the page itself is current.
    const within = await store.page(filter, scope, 0, 2);
    expect(within).toMatchObject({ total: null, hasNext: true });
    clock.at += 60_000;
    expect(await store.page(filter, scope, 0, 2)).toMatchObject({ total: 3, hasNext: true });
  });
});
