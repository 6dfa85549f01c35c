import { z } from 'zod';
import {
  iterationEntity,
  labelEntity,
  milestoneEntity,
  projectBoardEntity,
  projectBoardListEntity,
  projectMilestoneEntity,
  type NamespaceContext,
} from '@gl/contracts';
import { DEVELOPER, GUEST, REPORTER, STRANGER, namespaceFactory, useHarness } from '@gl/testing';
import { boardParentsMigration } from '../migrations/board-parents';
import { startBoardsHarness } from '../testing/boards.harness';

const boards = z.array(projectBoardEntity);
const lists = z.array(projectBoardListEntity);
const { groupNamespace, projectNamespace } = namespaceFactory({ firstId: 80_000 });

/** A project in a subgroup, as the gateway signs it (its groups root first, its own group last). */
function projectInGroup(overrides: Partial<NamespaceContext> = {}) {
  const root = groupNamespace();
  const group = groupNamespace({
    ancestorGroupIds: [root.id],
    fullPath: `${root.path}/sub`,
    fullName: `${root.name} / Sub`,
    webUrl: `http://localhost/groups/${root.path}/sub`,
  });
  const id = 80_500 + Math.floor(Math.random() * 10_000);
  const project = projectNamespace({
    id,
    name: 'Web',
    path: 'web',
    fullPath: `${root.path}/sub/web`,
    fullName: `${root.name} / Sub / Web`,
    webUrl: `http://localhost/${root.path}/sub/web`,
    ancestorGroupIds: [root.id, group.id],
    ...overrides,
  });
  return { root, group, project };
}

describe('Project issue boards API', () => {
  const h = useHarness(startBoardsHarness);

  async function createBoard(ns: NamespaceContext, name: string, tier: 'free' | 'ultimate' = 'free') {
    const res = await h.call('POST', `/projects/${ns.id}/boards`, { ns, tier, as: REPORTER, json: { name } });
    expect(res.status).toBe(201);
    return projectBoardEntity.parse(res.body);
  }

  async function label(ns: NamespaceContext, name: string) {
    const kind = ns.kind === 'group' ? 'groups' : 'projects';
    const res = await h.call('POST', `/${kind}/${ns.id}/labels`, { ns, json: { name, color: '#00FF00' } });
    expect(res.status).toBe(201);
    return labelEntity.parse(res.body);
  }

  it('When a reporter creates boards on the free tier, then a guest lists them paginated with the project and no group', async () => {
    const { project } = projectInGroup();
    const base = `/projects/${project.id}/boards`;
    const empty = await h.call('GET', base, { ns: project, tier: 'free', as: GUEST });
    expect(empty).toMatchObject({ status: 200, body: [] });
    const first = await createBoard(project, 'Development');
    expect(first).toMatchObject({
      name: 'Development',
      group: null,
      lists: [],
      milestone: null,
      project: {
        id: project.id,
        name: 'Web',
        name_with_namespace: project.fullName,
        path: 'web',
        path_with_namespace: project.fullPath,
        http_url_to_repo: `${project.webUrl}.git`,
        ssh_url_to_repo: `git@localhost:${project.fullPath}.git`,
        web_url: project.webUrl,
      },
    });
    const second = await createBoard(project, 'Release');
    const page = await h.call('GET', base, {
      ns: project,
      tier: 'free',
      as: GUEST,
      query: { per_page: '1', page: '2' },
    });
    expect(boards.parse(page.body).map((b) => b.name)).toEqual(['Release']);
    expect(page.headers.get('x-total')).toBe('2');
    expect(page.headers.get('x-prev-page')).toBe('1');
    const one = await h.call('GET', `${base}/${second.id}`, { ns: project, as: GUEST });
    expect(projectBoardEntity.parse(one.body).id).toBe(second.id);
    expect((await h.call('DELETE', `${base}/${first.id}`, { ns: project, as: REPORTER })).status).toBe(204);
    const gone = await h.call('GET', `${base}/${first.id}`, { ns: project, as: GUEST });
    expect(gone).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it("When another project's or a group's board is addressed, then 404 Not found", async () => {
    const { group, project } = projectInGroup();
    const other = projectInGroup().project;
    const theirs = await createBoard(other, 'Theirs');
    const res = await h.call('GET', `/projects/${project.id}/boards/${theirs.id}`, { ns: project });
    expect(res).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    const groupBoards = await h.call('GET', `/groups/${group.id}/boards`, { ns: group, tier: 'free' });
    const [groupBoard] = z.array(z.object({ id: z.number() })).parse(groupBoards.body);
    const crossed = await h.call('GET', `/projects/${project.id}/boards/${groupBoard!.id}/lists`, {
      ns: project,
    });
    expect(crossed).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it('When a guest writes, a stranger reads a private project or issues are disabled, then 403, 404 and 403', async () => {
    const { project } = projectInGroup();
    const board = await createBoard(project, 'Main');
    const base = `/projects/${project.id}/boards`;
    const forbidden = await h.call('POST', base, { ns: project, as: GUEST, json: { name: 'No' } });
    expect(forbidden).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const renamed = await h.call('PUT', `${base}/${board.id}`, {
      ns: project,
      as: GUEST,
      json: { name: 'x' },
    });
    expect(renamed.status).toBe(403);
    const hidden = await h.call('GET', base, { ns: project, as: STRANGER });
    expect(hidden).toMatchObject({ status: 404, body: { message: '404 Project Not Found' } });
    const publicProject = { ...project, visibility: 'public' as const };
    expect((await h.call('GET', base, { ns: publicProject, as: STRANGER })).status).toBe(200);
    const noIssues = { ...project, features: { issues: 'disabled' as const } };
    const disabled = await h.call('GET', base, { ns: noIssues, as: DEVELOPER });
    expect(disabled).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const missing = await h.call('POST', base, { ns: project, as: REPORTER, json: {} });
    expect(missing).toMatchObject({ status: 400, body: { error: 'name is missing' } });
  });

  it("When label lists are made of the project's and its groups' labels, then they are listed, moved and deleted by position", async () => {
    const { root, group, project } = projectInGroup();
    const board = await createBoard(project, 'Flow');
    const base = `/projects/${project.id}/boards/${board.id}/lists`;
    const own = await label(project, 'Doing');
    const inGroup = await label(group, 'Review');
    const inRoot = await label(root, 'Done');
    const stranger = await label(groupNamespace(), 'Elsewhere');
    for (const l of [own, inGroup, inRoot]) {
      const res = await h.call('POST', base, {
        ns: project,
        tier: 'free',
        as: REPORTER,
        json: { label_id: l.id },
      });
      expect(res.status).toBe(201);
    }
    const foreign = await h.call('POST', base, {
      ns: project,
      as: REPORTER,
      json: { label_id: stranger.id },
    });
    expect(foreign).toMatchObject({ status: 400, body: { message: { error: 'Label not found' } } });
    const twice = await h.call('POST', base, { ns: project, as: REPORTER, json: { label_id: own.id } });
    expect(twice).toMatchObject({
      status: 400,
      body: { message: { error: 'Label has already been taken' } },
    });
    const noLabel = await h.call('POST', base, { ns: project, tier: 'free', as: REPORTER, json: {} });
    expect(noLabel).toMatchObject({ status: 400, body: { error: 'label_id is missing' } });

    const all = lists.parse((await h.call('GET', base, { ns: project, as: GUEST })).body);
    expect(all.map((l) => [l.label?.name, l.position])).toEqual([
      ['Doing', 0],
      ['Review', 1],
      ['Done', 2],
    ]);
    const second = await h.call('GET', base, { ns: project, query: { per_page: '2', page: '2' } });
    expect(lists.parse(second.body).map((l) => l.label?.name)).toEqual(['Done']);
    expect(second.headers.get('x-total')).toBe('3');

    const moved = await h.call('PUT', `${base}/${all[2]!.id}`, {
      ns: project,
      as: REPORTER,
      json: { position: 0 },
    });
    expect(projectBoardListEntity.parse(moved.body)).toMatchObject({ label: { name: 'Done' }, position: 0 });
    const guestDelete = await h.call('DELETE', `${base}/${all[0]!.id}`, { ns: project, as: GUEST });
    expect(guestDelete.status).toBe(403);
    expect((await h.call('DELETE', `${base}/${all[0]!.id}`, { ns: project, as: REPORTER })).status).toBe(204);
    const one = await h.call('GET', `${base}/${all[1]!.id}`, { ns: project, as: GUEST });
    expect(projectBoardListEntity.parse(one.body)).toMatchObject({ label: { name: 'Review' }, position: 1 });
    const unknown = await h.call('GET', `${base}/${all[0]!.id}`, { ns: project });
    expect(unknown).toMatchObject({ status: 404, body: { message: '404 Not found' } });
  });

  it("When a board is scoped on a higher tier, then the project's and its groups' milestones and labels are used; free drops the scope", async () => {
    const { group, project } = projectInGroup();
    const board = await createBoard(project, 'Scoped', 'ultimate');
    const own = await h.call('POST', `/projects/${project.id}/milestones`, {
      ns: project,
      json: { title: 'v1' },
    });
    const ownMilestone = projectMilestoneEntity.parse(own.body);
    const theirs = await h.call('POST', `/groups/${group.id}/milestones`, {
      ns: group,
      json: { title: 'Q3' },
    });
    const groupMilestone = milestoneEntity.parse(theirs.body);
    const url = `/projects/${project.id}/boards/${board.id}`;
    const scoped = await h.call('PUT', url, {
      ns: project,
      as: REPORTER,
      json: { milestone_id: ownMilestone.id, labels: 'fresh', weight: 2 },
    });
    expect(scoped.status).toBe(200);
    expect(projectBoardEntity.parse(scoped.body)).toMatchObject({
      milestone: { id: ownMilestone.id, project_id: project.id, web_url: `${project.webUrl}/-/milestones/1` },
      labels: [{ name: 'fresh' }],
      weight: 2,
    });
    const created = await h.call('GET', `/projects/${project.id}/labels/fresh`, { ns: project });
    expect(labelEntity.parse(created.body).is_project_label).toBe(true);

    const list = await h.call('POST', `${url}/lists`, {
      ns: project,
      as: REPORTER,
      json: { milestone_id: groupMilestone.id },
    });
    expect(projectBoardListEntity.parse(list.body).milestone).toMatchObject({
      id: groupMilestone.id,
      group_id: group.id,
      web_url: `${group.webUrl}/-/milestones/${groupMilestone.iid}`,
    });
    const byGroup = await h.call('PUT', url, { ns: project, json: { milestone_id: groupMilestone.id } });
    expect(projectBoardEntity.parse(byGroup.body).milestone).toMatchObject({ id: groupMilestone.id });

    const free = await h.call('PUT', url, { ns: project, tier: 'free', json: { name: 'Plain', weight: 5 } });
    expect(projectBoardEntity.parse(free.body)).toMatchObject({ name: 'Plain', weight: 2 });
    const otherProject = projectInGroup().project;
    const foreign = await h.call('POST', `/projects/${otherProject.id}/milestones`, {
      ns: otherProject,
      json: { title: 'Not ours' },
    });
    const notOurs = await h.call('POST', `${url}/lists`, {
      ns: project,
      json: { milestone_id: projectMilestoneEntity.parse(foreign.body).id },
    });
    expect(notOurs).toMatchObject({ status: 400, body: { message: { error: 'Milestone not found' } } });
  });

  it("When a project label or milestone is deleted, then its lists leave the project's boards", async () => {
    const { project } = projectInGroup();
    const board = await createBoard(project, 'Cleanup', 'ultimate');
    const base = `/projects/${project.id}/boards/${board.id}/lists`;
    const doomed = await label(project, 'Doomed');
    const kept = await label(project, 'Kept');
    const made = await h.call('POST', `/projects/${project.id}/milestones`, {
      ns: project,
      json: { title: 'm' },
    });
    const milestone = projectMilestoneEntity.parse(made.body);
    for (const json of [{ label_id: doomed.id }, { milestone_id: milestone.id }, { label_id: kept.id }]) {
      expect((await h.call('POST', base, { ns: project, json })).status).toBe(201);
    }
    const labelGone = await h.call('DELETE', `/projects/${project.id}/labels/${doomed.id}`, { ns: project });
    expect(labelGone.status).toBe(204);
    const milestoneGone = await h.call('DELETE', `/projects/${project.id}/milestones/${milestone.id}`, {
      ns: project,
    });
    expect(milestoneGone.status).toBe(204);
    const left = lists.parse((await h.call('GET', base, { ns: project })).body);
    expect(left.map((l) => [l.label?.name, l.position])).toEqual([['Kept', 0]]);
  });

  it("When a listed project label is promoted, then the list shows the group's label in its place", async () => {
    const { group, project } = projectInGroup();
    const board = await createBoard(project, 'Promotion', 'ultimate');
    const base = `/projects/${project.id}/boards/${board.id}`;
    const own = await label(project, 'Shared');
    expect((await h.call('POST', `${base}/lists`, { ns: project, json: { label_id: own.id } })).status).toBe(
      201,
    );
    await h.call('PUT', base, { ns: project, json: { labels: 'Shared' } });
    const promoted = await h.call('PUT', `/projects/${project.id}/labels/${own.id}/promote`, { ns: project });
    expect(promoted.status).toBe(200);
    const groupLabel = labelEntity.parse(
      (await h.call('GET', `/groups/${group.id}/labels/Shared`, { ns: group })).body,
    );
    const shown = projectBoardEntity.parse((await h.call('GET', base, { ns: project })).body);
    expect(shown.lists.map((l) => [l.label?.id, l.label?.name, l.position])).toEqual([
      [groupLabel.id, 'Shared', 0],
    ]);
    expect(shown.labels.map((l) => l.id)).toEqual([groupLabel.id]);
  });

  it("When an iteration list is made of the project's group's iteration, then it links to that group; another group's is refused", async () => {
    const { root, group, project } = projectInGroup();
    const board = await createBoard(project, 'Sprints', 'ultimate');
    const dates = { start_date: '2101-03-01', due_date: '2101-03-14' };
    const made = await h.call('POST', `/groups/${group.id}/iterations`, { ns: group, json: dates });
    const iteration = iterationEntity.parse(made.body);
    const base = `/projects/${project.id}/boards/${board.id}/lists`;
    const list = await h.call('POST', base, { ns: project, json: { iteration_id: iteration.id } });
    expect(list.status).toBe(201);
    expect(projectBoardListEntity.parse(list.body).iteration).toMatchObject({
      id: iteration.id,
      web_url: `http://localhost/groups/${root.path}/sub/-/iterations/${iteration.id}`,
    });
    const elsewhere = groupNamespace();
    const theirs = await h.call('POST', `/groups/${elsewhere.id}/iterations`, { ns: elsewhere, json: dates });
    const refused = await h.call('POST', base, {
      ns: project,
      json: { iteration_id: iterationEntity.parse(theirs.body).id },
    });
    expect(refused).toMatchObject({ status: 400, body: { message: { error: 'Iteration not found' } } });
  });

  it('When group boards older than board parents exist, then the migration names their group and they are served', async () => {
    const ns = groupNamespace();
    const id = 990_000 + Math.floor(Math.random() * 9_000);
    const collection = h.runtime.connection.collection('boards');
    const board = { groupId: ns.id, slot: `board:${id}`, name: 'Old', hideBacklogList: false };
    await collection.insertOne({
      _id: id as never,
      ...board,
      hideClosedList: false,
      milestoneId: null,
      assigneeId: null,
      labelIds: [],
      weight: null,
      lists: [],
      version: 0,
      createdAt: new Date(),
    });
    await boardParentsMigration(5).up(h.runtime.connection, h.runtime.logger);
    await boardParentsMigration(5).up(h.runtime.connection, h.runtime.logger);
    expect(await collection.findOne({ _id: id as never })).toMatchObject({
      parentKind: 'group',
      parentId: ns.id,
    });
    const shown = await h.call('GET', `/groups/${ns.id}/boards/${id}`, { ns });
    expect(shown).toMatchObject({ status: 200, body: { id, name: 'Old', project: null } });
  });
});
