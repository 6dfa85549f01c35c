import { boardEntity, boardListEntity, labelEntity } from '@gl/contracts';
import { testEnv } from '@gl/testing';
import { z } from 'zod';
import { gitlab, gitlabFree, rootToken, unique } from './e2e.helpers';

/**
 * The free tier end to end: the stack's second gateway signs `tier: free` for the same services, so the
 * same group is seen as a GitLab Free instance would show it.
 */
describe('boards on the free tier with @gitbeaker/rest', () => {
  const free = gitlabFree();
  let groupId: number;

  const freeApi = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${testEnv('freeGatewayUrl')}/api/v4${path}`, {
      ...init,
      headers: { 'PRIVATE-TOKEN': rootToken(), 'content-type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    const path = unique('freeboards');
    groupId = (await gitlab().Groups.create(path, path, { visibility: 'private' })).id;
  });

  it('When a group is read, then it has exactly one board, "Development", and no other can be created or deleted', async () => {
    const boards = z.array(boardEntity).parse(await free.GroupIssueBoards.all(groupId));
    expect(boards.map((b) => b.name)).toEqual(['Development']);
    expect(
      (await freeApi(`/groups/${groupId}/boards`, { method: 'POST', body: '{"name":"x"}' })).status,
    ).toBe(403);
    const remove = await freeApi(`/groups/${groupId}/boards/${boards[0]!.id}`, { method: 'DELETE' });
    expect(remove.status).toBe(403);
    expect(z.array(boardEntity).parse(await free.GroupIssueBoards.all(groupId))).toHaveLength(1);
  });

  it('When label lists are created, moved and deleted, then positions stay dense; scoping and milestone lists are refused', async () => {
    const [board] = z.array(boardEntity).parse(await free.GroupIssueBoards.all(groupId));
    const labels = [];
    for (const name of ['todo', 'doing', 'done']) {
      labels.push(labelEntity.parse(await free.GroupLabels.create(groupId, name, '#0033CC')));
    }
    const lists = [];
    for (const label of labels) {
      lists.push(
        boardListEntity.parse(
          await free.GroupIssueBoards.createList(groupId, board!.id, { labelId: label.id } as never),
        ),
      );
    }
    expect(lists.map((l) => l.position)).toEqual([0, 1, 2]);
    await free.GroupIssueBoards.editList(groupId, board!.id, lists[2]!.id, 0);
    await free.GroupIssueBoards.removeList(groupId, board!.id, lists[0]!.id);
    const after = z.array(boardListEntity).parse(await free.GroupIssueBoards.allLists(groupId, board!.id));
    expect(after.map((l) => [l.label!.name, l.position])).toEqual([
      ['done', 0],
      ['doing', 1],
    ]);

    const milestoneList = await freeApi(`/groups/${groupId}/boards/${board!.id}/lists`, {
      method: 'POST',
      body: JSON.stringify({ milestone_id: 1 }),
    });
    expect(milestoneList.status).toBe(400);
    expect(await milestoneList.json()).toEqual({ error: 'label_id is missing' });
    const scoped = await freeApi(`/groups/${groupId}/boards/${board!.id}`, {
      method: 'PUT',
      body: JSON.stringify({ weight: 3 }),
    });
    expect(scoped.status).toBe(403);
  });
});
