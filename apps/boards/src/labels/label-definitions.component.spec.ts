import {
  DOMAIN_EVENT_TYPES,
  boardDefinedData,
  labelDefinedData,
  labelEntity,
  projectBoardEntity,
  type NamespaceContext,
} from '@gl/contracts';
import { namespaceFactory, outboxEvents, useHarness } from '@gl/testing';
import { labelDefinitionsMigration } from '../migrations/label-definitions';
import { projectInGroupOf, startBoardsHarness } from '../testing/boards.harness';

const namespaces = namespaceFactory({ firstId: 76_000 });
const { groupNamespace, projectNamespace } = namespaces;

/**
 * Every write of a group or project label carries its definition (`gl.boards.label.defined`) in the same
 * write: discussions renames the label on its issues and shows it in full from these.
 */
describe('Label definitions on the bus', () => {
  const h = useHarness(startBoardsHarness);

  async function definitionsOf(labelId: number) {
    const events = await outboxEvents(h.runtime.connection, ['labels', 'project_labels']);
    return events
      .filter((e) => e.type === DOMAIN_EVENT_TYPES.boards.labelDefined)
      .map((e) => labelDefinedData.parse(e.data))
      .filter((d) => d.labelId === labelId)
      .sort((a, b) => a.revision - b.revision);
  }

  async function create(path: string, ns: NamespaceContext, json: Record<string, unknown>) {
    const res = await h.call('POST', path, { ns, json });
    expect(res.status).toBe(201);
    return labelEntity.parse(res.body);
  }

  it('When a group label is created, renamed and deleted, then each write defines it at the next revision', async () => {
    const ns = groupNamespace();
    const label = await create(`/groups/${ns.id}/labels`, ns, {
      name: 'bug',
      color: '#FF0000',
      description: 'Broken',
    });
    const renamed = await h.call('PUT', `/groups/${ns.id}/labels/${label.id}`, {
      ns,
      json: { new_name: 'defect', color: '#EEEEEE' },
    });
    expect(renamed.status).toBe(200);
    expect((await h.call('DELETE', `/groups/${ns.id}/labels/${label.id}`, { ns })).status).toBe(204);

    const shared = { labelId: label.id, groupId: ns.id, projectId: null, mergedInto: null };
    expect(await definitionsOf(label.id)).toEqual([
      {
        ...shared,
        revision: 1,
        deleted: false,
        title: 'bug',
        previousTitle: null,
        color: '#FF0000',
        textColor: '#FFFFFF',
        description: 'Broken',
      },
      {
        ...shared,
        revision: 2,
        deleted: false,
        title: 'defect',
        previousTitle: 'bug',
        color: '#EEEEEE',
        textColor: '#1F1E24',
        description: 'Broken',
      },
      {
        ...shared,
        revision: 3,
        deleted: true,
        title: 'defect',
        previousTitle: null,
        color: '#EEEEEE',
        textColor: '#1F1E24',
        description: 'Broken',
      },
    ]);
  });

  it("When a project label is promoted, then the project labels of that title are deleted as merged into the group's", async () => {
    const { group, project } = projectInGroupOf(namespaces);
    const sibling = projectNamespace({ ancestorGroupIds: [group.id], fullName: `${group.name} / Sibling` });
    const own = await create(`/projects/${project.id}/labels`, project, { name: 'infra', color: '#AA0000' });
    const theirs = await create(`/projects/${sibling.id}/labels`, sibling, {
      name: 'infra',
      color: '#00AA00',
    });
    const res = await h.call('PUT', `/projects/${project.id}/labels/infra/promote`, { ns: project });
    expect(res.status).toBe(200);
    const promoted = labelEntity.parse(res.body);

    for (const label of [own, theirs]) {
      const last = (await definitionsOf(label.id)).at(-1);
      expect(last).toMatchObject({ revision: 2, deleted: true, mergedInto: promoted.id, title: 'infra' });
    }
    expect(await definitionsOf(promoted.id)).toEqual([
      expect.objectContaining({ revision: 1, groupId: group.id, title: 'infra', color: '#AA0000' }),
    ]);
  });

  it("When a project label on a project board's list is renamed, then the board is defined again with the new title", async () => {
    const { project } = projectInGroupOf(namespaces);
    const label = await create(`/projects/${project.id}/labels`, project, { name: 'todo', color: '#AA0000' });
    const board = projectBoardEntity.parse(
      (await h.call('POST', `/projects/${project.id}/boards`, { ns: project, json: { name: 'B' } })).body,
    );
    const list = await h.call('POST', `/projects/${project.id}/boards/${board.id}/lists`, {
      ns: project,
      json: { label_id: label.id },
    });
    expect(list.status).toBe(201);
    const renamed = await h.call('PUT', `/projects/${project.id}/labels/${label.id}`, {
      ns: project,
      json: { new_name: 'to do' },
    });
    expect(renamed.status).toBe(200);
    const boards = (await outboxEvents(h.runtime.connection, ['board_definitions']))
      .filter((e) => e.type === DOMAIN_EVENT_TYPES.boards.boardDefined)
      .map((e) => boardDefinedData.parse(e.data))
      .filter((d) => d.boardId === board.id)
      .sort((a, b) => a.revision - b.revision);
    expect(boards.at(-1)?.lists.map((l) => l.labelTitle)).toEqual(['to do']);
  });

  it('When labels written before definitions existed are migrated, then each is defined once at revision 1', async () => {
    const { group, project } = projectInGroupOf(namespaces);
    const old = { color: '#ABCDEF', description: null, priority: null, createdAt: new Date() };
    const [groupId, projectId] = [9_700_000 + group.id, 9_710_000 + project.id];
    await h.runtime.connection
      .collection('labels')
      .insertOne({ _id: groupId, groupId: group.id, name: 'old', ...old } as never);
    await h.runtime.connection
      .collection('project_labels')
      .insertOne({ _id: projectId, projectId: project.id, groupId: group.id, name: 'mine', ...old } as never);
    await labelDefinitionsMigration(6).up(h.runtime.connection, h.runtime.logger);
    await labelDefinitionsMigration(6).up(h.runtime.connection, h.runtime.logger);
    expect(await definitionsOf(groupId)).toEqual([
      expect.objectContaining({
        revision: 1,
        groupId: group.id,
        projectId: null,
        title: 'old',
        color: '#ABCDEF',
      }),
    ]);
    expect(await definitionsOf(projectId)).toEqual([
      expect.objectContaining({ revision: 1, groupId: null, projectId: project.id, title: 'mine' }),
    ]);
    // The next change goes on from there.
    await h.call('PUT', `/groups/${group.id}/labels/${groupId}`, { ns: group, json: { new_name: 'older' } });
    expect((await definitionsOf(groupId)).map((d) => [d.revision, d.previousTitle])).toEqual([
      [1, null],
      [2, 'old'],
    ]);
  });

  it('When two updates of one label race, then their definitions have different revisions', async () => {
    const ns = groupNamespace();
    const label = await create(`/groups/${ns.id}/labels`, ns, { name: 'race', color: '#123456' });
    const results = await Promise.all(
      ['#111111', '#222222', '#333333'].map((color) =>
        h.call('PUT', `/groups/${ns.id}/labels/${label.id}`, { ns, json: { color } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    const revisions = (await definitionsOf(label.id)).map((d) => d.revision);
    expect(revisions).toEqual([1, 2, 3, 4]);
  });
});
