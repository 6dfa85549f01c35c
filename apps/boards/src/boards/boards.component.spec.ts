import { boardEntity, labelEntity, milestoneEntity } from '@gl/contracts';
import { z } from 'zod';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';
import { DEVELOPER, GUEST, REPORTER, STRANGER, useHarness } from '@gl/testing';

const boards = z.array(boardEntity);

describe('Group issue boards API', () => {
  const h = useHarness(startBoardsHarness);

  describe('on the free tier', () => {
    const tier = 'free' as const;

    it('When the boards are listed, then the group has its one board "Development"', async () => {
      const ns = groupNamespace();
      const res = await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier, as: GUEST });
      expect(res.status).toBe(200);
      const [board, ...rest] = boards.parse(res.body);
      expect(rest).toEqual([]);
      expect(board).toMatchObject({
        name: 'Development',
        project: null,
        lists: [],
        group: { id: ns.id, name: ns.name, web_url: ns.webUrl },
        milestone: null,
      });
      expect(res.headers.get('x-total')).toBe('1');
    });

    it('When many first requests arrive at once, then still exactly one board exists', async () => {
      const ns = groupNamespace();
      const replies = await Promise.all(
        Array.from({ length: 8 }, () => h.call('GET', `/groups/${ns.id}/boards`, { ns, tier })),
      );
      expect(replies.every((r) => r.status === 200)).toBe(true);
      const after = boards.parse((await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier })).body);
      expect(after).toHaveLength(1);
      for (const reply of replies) expect(boards.parse(reply.body).map((b) => b.id)).toEqual([after[0]!.id]);
    });

    it('When a board is created or deleted, then it answers 403', async () => {
      const ns = groupNamespace();
      const created = await h.call('POST', `/groups/${ns.id}/boards`, { ns, tier, json: { name: 'Two' } });
      expect(created).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      const [board] = boards.parse((await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier })).body);
      const deleted = await h.call('DELETE', `/groups/${ns.id}/boards/${board!.id}`, { ns, tier });
      expect(deleted.status).toBe(403);
    });

    it('When the board is scoped, then the scope is dropped and name and hide flags are applied (200)', async () => {
      const ns = groupNamespace();
      const [board] = boards.parse((await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier })).body);
      const ok = await h.call('PUT', `/groups/${ns.id}/boards/${board!.id}`, {
        ns,
        tier,
        json: {
          name: 'Renamed',
          hide_backlog_list: true,
          hide_closed_list: true,
          weight: 3,
          labels: 'a',
          milestone_id: -2,
          assignee_id: 1,
        },
      });
      expect(ok.status).toBe(200);
      expect(boardEntity.parse(ok.body)).toMatchObject({
        name: 'Renamed',
        hide_backlog_list: true,
        hide_closed_list: true,
        milestone: null,
        assignee: null,
        labels: [],
        weight: null,
      });
      const labels = await h.call('GET', `/groups/${ns.id}/labels`, { ns, tier });
      expect(labels.body).toEqual([]);
    });
  });

  describe('on a higher tier', () => {
    it('When boards are created, then each is returned with the full shape and listed by id', async () => {
      const ns = groupNamespace();
      const res = await h.call('POST', `/groups/${ns.id}/boards`, {
        ns,
        as: REPORTER,
        json: { name: 'One' },
      });
      expect(res.status).toBe(201);
      expect(boardEntity.parse(res.body)).toMatchObject({
        name: 'One',
        hide_backlog_list: false,
        hide_closed_list: false,
        project: null,
        lists: [],
        milestone: null,
        assignee: null,
        labels: [],
        weight: null,
      });
      await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'Two' } });
      const list = await h.call('GET', `/groups/${ns.id}/boards`, { ns, query: { per_page: '1' } });
      expect(boards.parse(list.body).map((b) => b.name)).toEqual(['One']);
      expect(list.headers.get('x-total')).toBe('2');
      expect(list.headers.get('link')).toContain('rel="next"');
    });

    it('When the name is missing, then creation answers 400 "name is missing"', async () => {
      const ns = groupNamespace();
      const res = await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: {} });
      expect(res).toMatchObject({ status: 400, body: { error: 'name is missing' } });
    });

    it('When a board is scoped, then milestone (full), assignee, labels and weight are returned', async () => {
      const ns = groupNamespace();
      await h.addUser(DEVELOPER);
      const board = boardEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'S' } })).body,
      );
      const milestone = milestoneEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'M' } })).body,
      );
      const label = labelEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name: 'L', color: '#123456' } })).body,
      );
      const res = await h.call('PUT', `/groups/${ns.id}/boards/${board.id}`, {
        ns,
        json: { milestone_id: milestone.id, assignee_id: DEVELOPER.id, labels: 'L,unknown', weight: 9 },
      });
      expect(res.status).toBe(200);
      const updated = boardEntity.parse(res.body);
      expect(updated.milestone).toEqual(milestone);
      expect(updated.assignee).toMatchObject({ id: DEVELOPER.id, username: DEVELOPER.username });
      // An unknown title is created in the group (Labels::FindOrCreateService) with GitLab's default color.
      expect(updated.labels[0]).toEqual({ id: label.id, name: 'L', color: '#123456', description: null });
      expect(updated.labels.slice(1).map((l) => [l.name, l.color])).toEqual([['unknown', '#6699cc']]);
      expect(updated.weight).toBe(9);
      const got = boardEntity.parse(
        (await h.call('GET', `/groups/${ns.id}/boards/${board.id}`, { ns })).body,
      );
      expect(got.milestone).toEqual({ id: milestone.id, title: 'M' });
    });

    it('When weight is outside 0..9 or name blank, then the update answers 400', async () => {
      const ns = groupNamespace();
      const board = boardEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'W' } })).body,
      );
      for (const weight of [-1, 10]) {
        const res = await h.call('PUT', `/groups/${ns.id}/boards/${board.id}`, { ns, json: { weight } });
        expect(res).toMatchObject({ status: 400, body: { error: 'weight is invalid' } });
      }
      const blank = await h.call('PUT', `/groups/${ns.id}/boards/${board.id}`, { ns, json: { name: '' } });
      expect(blank).toMatchObject({ status: 400, body: { message: { name: ["can't be blank"] } } });
    });

    it('When a board is deleted, then it answers 204 and is gone (404 "Not found")', async () => {
      const ns = groupNamespace();
      const board = boardEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'D' } })).body,
      );
      expect(
        (await h.call('DELETE', `/groups/${ns.id}/boards/${board.id}`, { ns, as: REPORTER })).status,
      ).toBe(204);
      const res = await h.call('GET', `/groups/${ns.id}/boards/${board.id}`, { ns });
      expect(res).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    });

    it('When a board belongs to another group, then it is 404 "Not found"', async () => {
      const ns = groupNamespace();
      const other = groupNamespace();
      const board = boardEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'Mine' } })).body,
      );
      const res = await h.call('GET', `/groups/${other.id}/boards/${board.id}`, { ns: other });
      expect(res).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    });
  });

  describe('authorization', () => {
    it('When nobody is signed in, then it answers 401', async () => {
      const ns = groupNamespace({ visibility: 'public' });
      const res = await h.call('GET', `/groups/${ns.id}/boards`, { ns, as: null });
      expect(res).toMatchObject({ status: 401, body: { message: '401 Unauthorized' } });
    });

    it('When a non-member reads a private group, then it answers 404 "Group Not Found"', async () => {
      const ns = groupNamespace();
      const res = await h.call('GET', `/groups/${ns.id}/boards`, { ns, as: STRANGER });
      expect(res).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    });

    it('When a guest writes, then it answers 403; a public group is readable by any user', async () => {
      const ns = groupNamespace({ visibility: 'public' });
      const board = boardEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'P' } })).body,
      );
      const put = await h.call('PUT', `/groups/${ns.id}/boards/${board.id}`, {
        ns,
        as: GUEST,
        json: { name: 'no' },
      });
      expect(put).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      const create = await h.call('POST', `/groups/${ns.id}/boards`, { ns, as: GUEST, json: { name: 'no' } });
      expect(create.status).toBe(403);
      const read = await h.call('GET', `/groups/${ns.id}/boards/${board.id}`, { ns, as: STRANGER });
      expect(read.status).toBe(200);
    });
  });
});
