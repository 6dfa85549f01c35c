import { Gitlab } from '@gitbeaker/rest';
import { boardEntity, boardListEntity, labelEntity, projectBoardEntity } from '@gl/contracts';
import type { InfraHandle } from '@gl/infra';
import { z } from 'zod';
import type { RunningStack } from '@gl/launcher';
import { unique } from './e2e.helpers';
import { startOwnStack } from './own-stack';

/**
 * The free tier end to end, on a stack of its own (own infrastructure: two gateways on one FerretDB
 * catalogue would lose each other's updates, and two stacks on one broker would share durables).
 */
const ROOT_TOKEN = 'glpat-free-tier-root-token-000000000';

describe('boards on the free tier with @gitbeaker/rest', () => {
  let infra: InfraHandle;
  let stack: RunningStack;
  let free: InstanceType<typeof Gitlab>;
  let groupId: number;

  const freeApi = (path: string, init: RequestInit = {}): Promise<Response> =>
    fetch(`${stack.gatewayUrl}/api/v4${path}`, {
      ...init,
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    ({ infra, stack } = await startOwnStack('free', ROOT_TOKEN, { tier: 'free' }));
    free = new Gitlab({ host: stack.gatewayUrl, token: ROOT_TOKEN });
    const path = unique('freeboards');
    groupId = (await free.Groups.create(path, path, { visibility: 'private' })).id;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await infra?.stop();
  });

  /** The one board a free-tier group has. */
  async function developmentBoard(): Promise<z.infer<typeof boardEntity>> {
    const [board] = z.array(boardEntity).parse(await free.GroupIssueBoards.all(groupId));
    return board!;
  }

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

  it('When label lists are created, moved and deleted, then positions stay dense', async () => {
    const board = await developmentBoard();
    const labels = [];
    for (const name of ['todo', 'doing', 'done']) {
      labels.push(labelEntity.parse(await free.GroupLabels.create(groupId, name, '#0033CC')));
    }
    const lists = [];
    for (const label of labels) {
      lists.push(
        boardListEntity.parse(
          await free.GroupIssueBoards.createList(groupId, board.id, { labelId: label.id } as never),
        ),
      );
    }
    expect(lists.map((l) => l.position)).toEqual([0, 1, 2]);
    await free.GroupIssueBoards.editList(groupId, board.id, lists[2]!.id, 0);
    await free.GroupIssueBoards.removeList(groupId, board.id, lists[0]!.id);
    const after = z.array(boardListEntity).parse(await free.GroupIssueBoards.allLists(groupId, board.id));
    expect(after.map((l) => [l.label!.name, l.position])).toEqual([
      ['done', 0],
      ['doing', 1],
    ]);
  });

  it('When a milestone list is created, then 400 "label_id is missing": only label lists on the free tier', async () => {
    const board = await developmentBoard();
    const milestoneList = await freeApi(`/groups/${groupId}/boards/${board.id}/lists`, {
      method: 'POST',
      body: JSON.stringify({ milestone_id: 1 }),
    });
    expect(milestoneList.status).toBe(400);
    expect(await milestoneList.json()).toEqual({ error: 'label_id is missing' });
  });

  it('When the board is scoped with a weight, then 200 without it: the free tier drops scoping (permitted_params)', async () => {
    const board = await developmentBoard();
    const scoped = await freeApi(`/groups/${groupId}/boards/${board.id}`, {
      method: 'PUT',
      body: JSON.stringify({ weight: 3, hide_closed_list: true }),
    });
    expect(scoped.status).toBe(200);
    expect(boardEntity.parse(await scoped.json())).toMatchObject({ weight: null, hide_closed_list: true });
  });

  it('When iterations are listed or created, then 403: iterations are a higher-tier feature', async () => {
    const listed = await freeApi(`/groups/${groupId}/iterations`);
    expect(listed.status).toBe(403);
    const created = await freeApi(`/groups/${groupId}/iterations`, {
      method: 'POST',
      body: JSON.stringify({ start_date: '2030-01-01', due_date: '2030-01-14' }),
    });
    expect(created.status).toBe(403);
  });

  it('When a project creates boards, then it has several on the free tier (multiple_issue_boards_available?) and label lists only', async () => {
    const project = await free.Projects.create({ name: unique('freeproject'), namespaceId: groupId });
    const first = projectBoardEntity.parse(await free.ProjectIssueBoards.create(project.id, 'One'));
    const second = projectBoardEntity.parse(await free.ProjectIssueBoards.create(project.id, 'Two'));
    const boards = z.array(projectBoardEntity).parse(await free.ProjectIssueBoards.all(project.id));
    expect(boards.map((b) => b.id)).toEqual([first.id, second.id]);
    const scoped = await freeApi(`/projects/${project.id}/boards/${first.id}`, {
      method: 'PUT',
      body: JSON.stringify({ weight: 3, name: 'First' }),
    });
    expect(projectBoardEntity.parse(await scoped.json())).toMatchObject({ name: 'First', weight: null });
    const milestoneList = await freeApi(`/projects/${project.id}/boards/${first.id}/lists`, {
      method: 'POST',
      body: JSON.stringify({ milestone_id: 1 }),
    });
    expect(milestoneList.status).toBe(400);
    expect(await milestoneList.json()).toEqual({ error: 'label_id is missing' });
    await free.ProjectIssueBoards.remove(project.id, second.id);
    expect(z.array(projectBoardEntity).parse(await free.ProjectIssueBoards.all(project.id))).toHaveLength(1);
  });
});
