import { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  boardDefinedData,
  boardEntity,
  boardListEntity,
  labelEntity,
  projectBoardEntity,
  type BoardDefinedData,
  type NamespaceContext,
} from '@gl/contracts';
import { namespaceFactory, outboxEvents, useHarness } from '@gl/testing';
import { createBoardDefinitions, createBoardDefinitionsModel } from './board-definitions';
import { createProjectLabelsModel } from '../labels/project-labels.model';
import { createBoardsModels } from '../boards.models';
import { groupNamespace, startBoardsHarness } from '../testing/boards.harness';

const projects = namespaceFactory({ firstId: 90_000 });
/** A project of the group, as the gateway signs it. */
const projectOf = (group: NamespaceContext) =>
  projects.projectNamespace({
    fullPath: `${group.path}/app`,
    webUrl: `http://localhost/${group.path}/app`,
    ancestorGroupIds: [group.id],
  });

describe('Board definitions published for other services (gl.boards.board.defined)', () => {
  const h = useHarness(startBoardsHarness);

  /** The board's published definitions, oldest first. */
  async function definitions(boardId: number): Promise<BoardDefinedData[]> {
    const events = await outboxEvents(h.runtime.connection, ['board_definitions']);
    return events
      .filter((e) => e.type === DOMAIN_EVENT_TYPES.boards.boardDefined)
      .map((e) => boardDefinedData.parse(e.data))
      .filter((d) => d.boardId === boardId)
      .sort((a, b) => a.revision - b.revision);
  }

  it('When a board, its scope and its lists change, then each change publishes the whole definition with the next revision', async () => {
    const ns = groupNamespace();
    const board = boardEntity.parse(
      (await h.call('POST', `/groups/${ns.id}/boards`, { ns, json: { name: 'B' } })).body,
    );
    const label = async (name: string) =>
      labelEntity.parse(
        (await h.call('POST', `/groups/${ns.id}/labels`, { ns, json: { name, color: '#0000FF' } })).body,
      );
    const doing = await label('Doing');
    const review = await label('Review');
    const base = `/groups/${ns.id}/boards/${board.id}`;
    const first = boardListEntity.parse(
      (await h.call('POST', `${base}/lists`, { ns, json: { label_id: doing.id } })).body,
    );
    await h.call('POST', `${base}/lists`, { ns, json: { label_id: review.id } });
    expect((await h.call('PUT', base, { ns, json: { labels: 'Team', weight: 3 } })).status).toBe(200);
    await h.call('PUT', `${base}/lists/${first.id}`, { ns, json: { position: 1 } });
    await h.call('PUT', `/groups/${ns.id}/labels/${review.id}`, { ns, json: { new_name: 'In review' } });

    const published = await definitions(board.id);
    expect(published.map((d) => d.revision)).toEqual([1, 2, 3, 4, 5, 6]);
    const last = published[published.length - 1]!;
    expect(last).toMatchObject({
      groupId: ns.id,
      deleted: false,
      labels: ['Team'],
      weight: 3,
    });
    expect(last.lists.map((l) => l.labelTitle)).toEqual(['In review', 'Doing']);

    await h.call('DELETE', `/groups/${ns.id}/labels/${doing.id}`, { ns });
    expect((await definitions(board.id)).at(-1)!.lists.map((l) => l.labelTitle)).toEqual(['In review']);
    expect((await h.call('DELETE', base, { ns })).status).toBe(204);
    expect((await definitions(board.id)).at(-1)).toMatchObject({ deleted: true, revision: 8 });
  });

  it('When a project board gets a list of a project label and one of a group label, then its definition names the project and both titles', async () => {
    const group = groupNamespace();
    const project = projectOf(group);
    const board = projectBoardEntity.parse(
      (await h.call('POST', `/projects/${project.id}/boards`, { ns: project, json: { name: 'P' } })).body,
    );
    const own = labelEntity.parse(
      (
        await h.call('POST', `/projects/${project.id}/labels`, {
          ns: project,
          json: { name: 'Own', color: '#00FF00' },
        })
      ).body,
    );
    const shared = labelEntity.parse(
      (
        await h.call('POST', `/groups/${group.id}/labels`, {
          ns: group,
          json: { name: 'Shared', color: '#0000FF' },
        })
      ).body,
    );
    const base = `/projects/${project.id}/boards/${board.id}/lists`;
    expect((await h.call('POST', base, { ns: project, json: { label_id: own.id } })).status).toBe(201);
    expect((await h.call('POST', base, { ns: project, json: { label_id: shared.id } })).status).toBe(201);

    const last = (await definitions(board.id)).at(-1)!;
    expect(last).toMatchObject({ groupId: null, projectId: project.id, revision: 3, deleted: false });
    expect(last.lists.map((l) => l.labelTitle)).toEqual(['Own', 'Shared']);
  });

  it('When the free tier shows a group its board, then that board is published once', async () => {
    const ns = groupNamespace();
    const shown = await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier: 'free' });
    await h.call('GET', `/groups/${ns.id}/boards`, { ns, tier: 'free' });
    const [board] = z.array(boardEntity).parse(shown.body);
    expect((await definitions(board!.id)).map((d) => d.revision)).toEqual([1]);
  });
  it('When boards older than their definitions exist, then the start-up backfill publishes each once', async () => {
    const models = createBoardsModels(h.runtime.connection);
    const ns = groupNamespace();
    const old = 900_000 + Math.floor(Math.random() * 90_000);
    await models.boards.create({
      _id: old,
      groupId: ns.id,
      slot: `board:${old}`,
      name: 'Old',
      hideBacklogList: false,
      hideClosedList: false,
      milestoneId: null,
      assigneeId: null,
      labelIds: [],
      weight: null,
      lists: [{ id: old, kind: 'milestone', targetId: 5 }],
      version: 0,
      createdAt: new Date(),
    });
    const definitionsModel = createBoardDefinitionsModel(h.runtime.connection);
    const definitionsOf = createBoardDefinitions(
      models,
      definitionsModel,
      { kick: () => undefined },
      createProjectLabelsModel(h.runtime.connection),
    );
    expect(await definitionsOf.backfill(() => false)).toBeGreaterThanOrEqual(1);
    expect(await definitionsOf.backfill(() => false)).toBe(0);
    const [published] = await definitions(old);
    expect(published).toMatchObject({
      revision: 1,
      groupId: ns.id,
      lists: [{ kind: 'milestone', targetId: 5 }],
    });
  });
});
