import type { NamespaceContext } from '@gl/contracts';
import { boardEntity, labelEntity, milestoneEntity } from '@gl/contracts';
import { z } from 'zod';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';
import { DEVELOPER, GUEST, REPORTER, STRANGER, useHarness } from '@gl/testing';

type Board = z.infer<typeof boardEntity>;

/**
 * PUT /groups/:id/boards/:board_id with a scope, as EE Boards::UpdateService filters it
 * (ee/app/services/ee/boards/base_service.rb, update_service.rb).
 */
describe('Board scoping', () => {
  const h = useHarness(startBoardsHarness);

  async function newBoard(ns: NamespaceContext): Promise<Board> {
    return boardEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'Scoped' } })).body,
    );
  }

  async function put(ns: NamespaceContext, board: Board, json: unknown): Promise<Board> {
    const res = await h.call('PUT', `/groups/${ns.id}/boards/${board.id}`, { ns, json });
    expect(res.status).toBe(200);
    return boardEntity.parse(res.body);
  }

  async function get(ns: NamespaceContext, board: Board): Promise<Board> {
    return boardEntity.parse((await h.call('GET', `/groups/${ns.id}/boards/${board.id}`, { ns })).body);
  }

  async function milestone(ns: NamespaceContext, title: string) {
    return milestoneEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title } })).body,
    );
  }

  describe('assignee_id', () => {
    it('When an unknown user or null is given, then the assignee scope is cleared', async () => {
      const ns = groupNamespace();
      await h.addUser(DEVELOPER);
      const board = await newBoard(ns);
      expect((await put(ns, board, { assignee_id: DEVELOPER.id })).assignee).toMatchObject({
        id: DEVELOPER.id,
      });
      expect((await put(ns, board, { assignee_id: 987654 })).assignee).toBeNull();
      await put(ns, board, { assignee_id: DEVELOPER.id });
      expect((await put(ns, board, { assignee_id: null })).assignee).toBeNull();
      await put(ns, board, { assignee_id: DEVELOPER.id });
      const form = await h.call('PUT', `/groups/${ns.id}/boards/${board.id}`, {
        ns,
        form: { assignee_id: '' },
      });
      expect(boardEntity.parse(form.body).assignee).toBeNull();
    });
  });

  describe('milestone_id', () => {
    it('When a predefined id is given, then it is kept and shown by title on update and read', async () => {
      const ns = groupNamespace();
      const board = await newBoard(ns);
      const titles: [number, string][] = [
        [0, 'No Milestone'],
        [-1, 'Any Milestone'],
        [-2, 'Upcoming'],
        [-3, 'Started'],
      ];
      for (const [id, title] of titles) {
        expect((await put(ns, board, { milestone_id: id })).milestone).toEqual({ title });
        expect((await get(ns, board)).milestone).toEqual({ title });
      }
    });

    it('When null is given, then the milestone scope is cleared', async () => {
      const ns = groupNamespace();
      const board = await newBoard(ns);
      const m = await milestone(ns, 'M1');
      expect((await put(ns, board, { milestone_id: m.id })).milestone).toEqual(m);
      expect((await put(ns, board, { milestone_id: null })).milestone).toBeNull();
      await put(ns, board, { milestone_id: -2 });
      const form = await h.call('PUT', `/groups/${ns.id}/boards/${board.id}`, {
        ns,
        form: { milestone_id: '' },
      });
      expect(boardEntity.parse(form.body).milestone).toBeNull();
    });

    it("When an unknown id or another group's milestone is given, then the board keeps its milestone", async () => {
      const ns = groupNamespace();
      const other = groupNamespace();
      const board = await newBoard(ns);
      const mine = await milestone(ns, 'Mine');
      const foreign = await milestone(other, 'Foreign');
      await put(ns, board, { milestone_id: mine.id });
      for (const milestone_id of [987654, foreign.id, -7]) {
        const kept = await put(ns, board, { milestone_id, name: `n${milestone_id}` });
        expect(kept.milestone).toEqual(mine);
        expect(kept.name).toBe(`n${milestone_id}`);
      }
      const unscoped = await newBoard(ns);
      expect((await put(ns, unscoped, { milestone_id: foreign.id })).milestone).toBeNull();
    });

    it("When an ancestor group's milestone is given, then a subgroup's board is scoped to it", async () => {
      const parent = groupNamespace();
      const child = groupNamespace({ ancestorGroupIds: [parent.id] });
      const inherited = await milestone(parent, 'Parent');
      const board = await newBoard(child);
      expect((await put(child, board, { milestone_id: inherited.id })).milestone).toMatchObject({
        id: inherited.id,
        title: 'Parent',
      });
      expect((await get(child, board)).milestone).toEqual({ id: inherited.id, title: 'Parent' });
    });
  });

  describe('labels', () => {
    it('When titles are given, then existing labels are found (ancestors too) and the others created', async () => {
      const parent = groupNamespace();
      const ns = groupNamespace({ ancestorGroupIds: [parent.id] });
      const inherited = labelEntity.parse(
        (
          await h.call('POST', `/groups/${parent.id}/labels`, {
            ns: parent,
            json: { name: 'p', color: '#111111' },
          })
        ).body,
      );
      const own = labelEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'own', color: '#222222' } }))
          .body,
      );
      const board = await newBoard(ns);
      const scoped = await put(ns, board, { labels: ' p , own,fresh,fresh' });
      expect(scoped.labels.map((l) => [l.name, l.color])).toEqual([
        ['p', '#111111'],
        ['own', '#222222'],
        ['fresh', '#6699cc'],
      ]);
      expect(scoped.labels.slice(0, 2).map((l) => l.id)).toEqual([inherited.id, own.id]);
      const groupLabels = z.array(labelEntity).parse(
        (
          await h.call('GET', `/groups/${ns.id}/labels`, {
            ns,
            query: { include_ancestor_groups: 'false' },
          })
        ).body,
      );
      expect(groupLabels.map((l) => l.name).sort()).toEqual(['fresh', 'own']);
      const again = await put(ns, board, { labels: 'fresh' });
      expect(again.labels.map((l) => l.id)).toEqual([scoped.labels[2]!.id]);
      expect((await get(ns, board)).labels.map((l) => l.name)).toEqual(['fresh']);
    });

    it('When labels is empty, then the label scope is cleared', async () => {
      const ns = groupNamespace();
      const board = await newBoard(ns);
      expect((await put(ns, board, { labels: 'a,b' })).labels).toHaveLength(2);
      expect((await put(ns, board, { labels: '' })).labels).toEqual([]);
    });

    it('When many updates create the same title at once, then one label is made and all boards use it', async () => {
      const ns = groupNamespace();
      const created = await Promise.all(Array.from({ length: 4 }, () => newBoard(ns)));
      const scoped = await Promise.all(created.map((board) => put(ns, board, { labels: 'race' })));
      const ids = new Set(scoped.map((b) => b.labels[0]!.id));
      expect(ids.size).toBe(1);
    });
  });

  describe('authorization and validation', () => {
    it('When a guest scopes a board, then 403; a stranger to a private group gets 404; anonymous 401', async () => {
      const ns = groupNamespace();
      const board = await newBoard(ns);
      const path = `/groups/${ns.id}/boards/${board.id}`;
      const json = { milestone_id: -2 };
      expect(await h.call('PUT', path, { ns, as: GUEST, json })).toMatchObject({
        status: 403,
        body: { message: '403 Forbidden' },
      });
      expect(await h.call('PUT', path, { ns, as: STRANGER, json })).toMatchObject({
        status: 404,
        body: { message: '404 Group Not Found' },
      });
      expect((await h.call('PUT', path, { ns, as: null, json })).status).toBe(401);
      expect((await h.call('PUT', path, { ns, as: REPORTER, json })).status).toBe(200);
    });

    it('When milestone_id or assignee_id is not an integer, then 400 "<name> is invalid"', async () => {
      const ns = groupNamespace();
      const board = await newBoard(ns);
      for (const key of ['milestone_id', 'assignee_id']) {
        const res = await h.call('PUT', `/groups/${ns.id}/boards/${board.id}`, { ns, json: { [key]: 'x' } });
        expect(res).toMatchObject({ status: 400, body: { error: `${key} is invalid` } });
      }
    });

    it('When the group is on the free tier, then a scope is dropped and an existing one kept', async () => {
      const ns = groupNamespace();
      const [board] = z
        .array(boardEntity)
        .parse((await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier: 'free' })).body);
      const res = await h.call('PUT', `/groups/${ns.id}/boards/${board!.id}`, {
        ns,
        tier: 'free',
        json: { milestone_id: -2, labels: 'x', hide_closed_list: true },
      });
      expect(res.status).toBe(200);
      expect(boardEntity.parse(res.body)).toMatchObject({
        milestone: null,
        labels: [],
        hide_closed_list: true,
      });
    });
  });
});
