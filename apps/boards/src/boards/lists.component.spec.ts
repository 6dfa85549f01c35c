import type { NamespaceContext } from '@gl/contracts';
import { boardEntity, boardListEntity, labelEntity, milestoneEntity } from '@gl/contracts';
import { z } from 'zod';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';
import { DEVELOPER, GUEST, MAINTAINER, REPORTER, ROOT, STRANGER, useHarness } from '@gl/testing';

const lists = z.array(boardListEntity);

describe('Board lists API', () => {
  const h = useHarness(startBoardsHarness);

  async function setup(names: string[], tier: 'free' | 'ultimate' = 'ultimate', ns = groupNamespace()) {
    let boardId: number;
    if (tier === 'free') {
      boardId = z
        .array(boardEntity)
        .parse((await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier })).body)[0]!.id;
    } else {
      boardId = boardEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'B' } })).body,
      ).id;
    }
    const labelIds: number[] = [];
    for (const name of names) {
      const label = labelEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name, color: '#0000FF' } })).body,
      );
      labelIds.push(label.id);
    }
    const base = `/groups/${ns.id}/boards/${boardId}/lists`;
    return { ns, boardId, labelIds, base };
  }

  async function addLists(
    ns: NamespaceContext,
    base: string,
    labelIds: number[],
    tier: 'free' | 'ultimate' = 'ultimate',
  ) {
    const created = [];
    for (const label_id of labelIds) {
      const res = await h.call('POST', base, { ns, tier, json: { label_id } });
      expect(res.status).toBe(201);
      created.push(boardListEntity.parse(res.body));
    }
    return created;
  }

  async function order(ns: NamespaceContext, base: string): Promise<[number, number][]> {
    return lists.parse((await h.call('GET', base, { ns })).body).map((l) => [l.id, l.position]);
  }

  it('When label lists are created, then they go last with positions 0..n-1 and the label shape', async () => {
    const { ns, base, labelIds } = await setup(['a', 'b', 'c']);
    const created = await addLists(ns, base, labelIds);
    expect(created.map((l) => l.position)).toEqual([0, 1, 2]);
    expect(created[0]!.label).toEqual({ id: labelIds[0], name: 'a', color: '#0000FF', description: null });
    const all = await h.call('GET', base, { ns, as: GUEST });
    expect(lists.parse(all.body)).toEqual(created);
    expect(all.headers.get('x-total')).toBe('3');
    const page = await h.call('GET', base, { ns, query: { per_page: '2', page: '2' } });
    expect(lists.parse(page.body).map((l) => l.position)).toEqual([2]);
  });

  it('When a list is fetched by id, then it is returned; unknown ids answer 404 "Not found"', async () => {
    const { ns, base, labelIds } = await setup(['a']);
    const [list] = await addLists(ns, base, labelIds);
    const res = await h.call('GET', `${base}/${list!.id}`, { ns });
    expect(boardListEntity.parse(res.body)).toEqual(list);
    const missing = await h.call('GET', `${base}/99999999`, { ns });
    expect(missing).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('When a milestone or assignee list is created on a higher tier, then it carries that object', async () => {
    const { ns, base } = await setup([]);
    const milestone = milestoneEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/milestones`, { ns, json: { title: 'Ms' } })).body,
    );
    const byMilestone = await h.call('POST', base, { ns, json: { milestone_id: milestone.id } });
    expect(byMilestone.status).toBe(201);
    expect(boardListEntity.parse(byMilestone.body)).toMatchObject({ label: null, position: 0, milestone });
    await h.addUser(DEVELOPER);
    const byUser = await h.call('POST', base, { ns, json: { assignee_id: DEVELOPER.id } });
    expect(boardListEntity.parse(byUser.body)).toMatchObject({
      label: null,
      position: 1,
      assignee: { id: DEVELOPER.id },
    });
  });

  it("When none or several list targets are given on a higher tier, then Grape's errors are returned", async () => {
    const { ns, base, labelIds } = await setup(['a']);
    const none = await h.call('POST', base, { ns, json: {} });
    expect(none).toMatchObject({
      status: 400,
      body: {
        error:
          'label_id, milestone_id, iteration_id, assignee_id are missing, exactly one parameter must be provided',
      },
    });
    const two = await h.call('POST', base, { ns, json: { label_id: labelIds[0], milestone_id: 1 } });
    expect(two).toMatchObject({
      status: 400,
      body: { error: 'label_id, milestone_id are mutually exclusive' },
    });
  });

  it('When the free tier creates a list, then label_id is required', async () => {
    const { ns, base, labelIds } = await setup(['a'], 'free');
    const missing = await h.call('POST', base, { ns, tier: 'free', json: { milestone_id: 1 } });
    expect(missing).toMatchObject({ status: 400, body: { error: 'label_id is missing' } });
    const [list] = await addLists(ns, base, labelIds, 'free');
    expect(list!.position).toBe(0);
  });

  it('When the target is unknown or belongs to another group, then "<Type> not found" is returned', async () => {
    const { ns, base } = await setup([]);
    const other = groupNamespace();
    const foreignLabel = labelEntity.parse(
      (await h.call('POST', `/groups/${other.id}/labels`, { ns: other, json: { name: 'f', color: '#000' } }))
        .body,
    );
    const foreignMilestone = milestoneEntity.parse(
      (await h.call('POST', `/groups/${other.id}/milestones`, { ns: other, json: { title: 'f' } })).body,
    );
    const label = await h.call('POST', base, { ns, json: { label_id: foreignLabel.id } });
    expect(label).toMatchObject({ status: 400, body: { message: { error: 'Label not found' } } });
    const milestone = await h.call('POST', base, { ns, json: { milestone_id: foreignMilestone.id } });
    expect(milestone).toMatchObject({ status: 400, body: { message: { error: 'Milestone not found' } } });
    const user = await h.call('POST', base, { ns, json: { assignee_id: 123456 } });
    expect(user).toMatchObject({ status: 400, body: { message: { error: 'Assignee not found' } } });
  });

  it("When an ancestor group's label is used, then the list is created", async () => {
    const parent = groupNamespace();
    const label = labelEntity.parse(
      (
        await h.call('POST', `/groups/${parent.id}/labels`, {
          ns: parent,
          json: { name: 'up', color: '#000' },
        })
      ).body,
    );
    const { ns, base } = await setup([], 'ultimate', groupNamespace({ ancestorGroupIds: [parent.id] }));
    const res = await h.call('POST', base, { ns, json: { label_id: label.id } });
    expect(res.status).toBe(201);
  });

  it('When a label already has a list on the board, then it answers "Label has already been taken"', async () => {
    const { ns, base, labelIds } = await setup(['dup']);
    await addLists(ns, base, labelIds);
    const res = await h.call('POST', base, { ns, json: { label_id: labelIds[0] } });
    expect(res).toMatchObject({ status: 400, body: { message: { error: 'Label has already been taken' } } });
  });

  it('When a list moves down or up, then the lists in between shift and positions stay dense', async () => {
    const { ns, base, labelIds } = await setup(['a', 'b', 'c', 'd']);
    const [a, b, c, d] = await addLists(ns, base, labelIds);
    const down = await h.call('PUT', `${base}/${a!.id}`, { ns, as: REPORTER, json: { position: 2 } });
    expect(down.status).toBe(200);
    expect(boardListEntity.parse(down.body)).toMatchObject({ id: a!.id, position: 2 });
    expect(await order(ns, base)).toEqual([
      [b!.id, 0],
      [c!.id, 1],
      [a!.id, 2],
      [d!.id, 3],
    ]);
    await h.call('PUT', `${base}/${d!.id}`, { ns, json: { position: 0 } });
    expect(await order(ns, base)).toEqual([
      [d!.id, 0],
      [b!.id, 1],
      [c!.id, 2],
      [a!.id, 3],
    ]);
  });

  it.each([
    ['the same position', 0],
    ['a negative position', -1],
    ['the number of lists', 2],
  ])(
    'When a list is moved to %s, then it answers 400 "List could not be moved!"',
    async (_name, position) => {
      const { ns, base, labelIds } = await setup(['a', 'b']);
      const [a] = await addLists(ns, base, labelIds);
      const res = await h.call('PUT', `${base}/${a!.id}`, { ns, json: { position } });
      expect(res).toMatchObject({ status: 400, body: { message: { error: 'List could not be moved!' } } });
    },
  );

  it('When position is missing or the list unknown, then it answers 400 and 404', async () => {
    const { ns, base, labelIds } = await setup(['a']);
    const [a] = await addLists(ns, base, labelIds);
    const missing = await h.call('PUT', `${base}/${a!.id}`, { ns, json: {} });
    expect(missing).toMatchObject({ status: 400, body: { error: 'position is missing' } });
    const unknown = await h.call('PUT', `${base}/9999999`, { ns, json: { position: 0 } });
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('When a list is deleted by an owner or admin, then 204 and the later lists close the gap', async () => {
    const { ns, base, labelIds } = await setup(['a', 'b', 'c']);
    const [a, b, c] = await addLists(ns, base, labelIds);
    expect((await h.call('DELETE', `${base}/${b!.id}`, { ns })).status).toBe(204);
    expect(await order(ns, base)).toEqual([
      [a!.id, 0],
      [c!.id, 1],
    ]);
    expect((await h.call('DELETE', `${base}/${a!.id}`, { ns, as: ROOT })).status).toBe(204);
    expect(await order(ns, base)).toEqual([[c!.id, 0]]);
  });

  it('When a maintainer deletes a list, then it answers 403', async () => {
    const { ns, base, labelIds } = await setup(['a']);
    const [a] = await addLists(ns, base, labelIds);
    const res = await h.call('DELETE', `${base}/${a!.id}`, { ns, as: MAINTAINER });
    expect(res).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
  });

  it('When a guest writes lists or a stranger reads them, then it answers 403 and 404', async () => {
    const { ns, base, labelIds } = await setup(['a']);
    const [a] = await addLists(ns, base, labelIds);
    expect((await h.call('POST', base, { ns, as: GUEST, json: { label_id: labelIds[0] } })).status).toBe(403);
    expect((await h.call('PUT', `${base}/${a!.id}`, { ns, as: GUEST, json: { position: 0 } })).status).toBe(
      403,
    );
    const read = await h.call('GET', base, { ns, as: STRANGER });
    expect(read).toMatchObject({ status: 404, body: { message: '404 Group Not Found' } });
    expect((await h.call('GET', base, { ns, as: null })).status).toBe(401);
  });

  it('When a label is deleted, then its lists disappear and the positions stay dense', async () => {
    const { ns, base, labelIds } = await setup(['a', 'b', 'c']);
    const [a, , c] = await addLists(ns, base, labelIds);
    await h.call('DELETE', `/groups/${ns.id}/labels/${labelIds[1]}`, { ns });
    expect(await order(ns, base)).toEqual([
      [a!.id, 0],
      [c!.id, 1],
    ]);
  });

  it('When the board is fetched, then its lists are embedded in position order', async () => {
    const { ns, base, boardId, labelIds } = await setup(['a', 'b']);
    const [a, b] = await addLists(ns, base, labelIds);
    await h.call('PUT', `${base}/${b!.id}`, { ns, json: { position: 0 } });
    const board = boardEntity.parse((await h.call('GET', `/groups/${ns.id}/boards/${boardId}`, { ns })).body);
    expect(board.lists.map((l) => [l.id, l.position])).toEqual([
      [b!.id, 0],
      [a!.id, 1],
    ]);
  });
});
