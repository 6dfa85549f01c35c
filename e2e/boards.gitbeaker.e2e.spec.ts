import {
  boardEntity,
  boardListEntity,
  labelEntity,
  milestoneEntity,
  projectMilestoneEntity,
} from '@gl/contracts';
import { z } from 'zod';
import { api, gitlab, unique } from './e2e.helpers';

/**
 * Group boards, labels and milestones through the gateway with the real client (the stack runs the
 * ultimate tier; boards.free-tier.e2e.spec.ts runs a free-tier stack of its own).
 */
describe('boards with @gitbeaker/rest', () => {
  const root = gitlab();
  let groupId: number;

  beforeAll(async () => {
    const path = unique('boards');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    groupId = group.id;
  });

  it('When a label is created and renamed, then GroupLabels shows it under its new name', async () => {
    const label = labelEntity.parse(
      await root.GroupLabels.create(groupId, 'bug', '#FF0000', { description: 'Bugs' }),
    );
    expect(label).toMatchObject({ name: 'bug', color: '#FF0000', description: 'Bugs' });
    const edited = labelEntity.parse(await root.GroupLabels.edit(groupId, label.id, { newName: 'defect' }));
    expect(edited.name).toBe('defect');
    expect((await root.GroupLabels.all(groupId)).map((l) => l.name)).toContain('defect');
  });

  it("When ProjectLabels creates, edits, lists, promotes and removes a project's labels, then GitLab's answers come back", async () => {
    const project = await root.Projects.create({ name: unique('plabels'), namespaceId: groupId });
    await root.GroupLabels.create(groupId, unique('team'), '#0000FF');
    const label = labelEntity.parse(
      await root.ProjectLabels.create(project.id, 'needs review', '#FF0000', { priority: 1 }),
    );
    expect(label).toMatchObject({ name: 'needs review', priority: 1, is_project_label: true });
    const edited = labelEntity.parse(
      await root.ProjectLabels.edit(project.id, 'needs review', { color: '#00FF00', description: 'Look' }),
    );
    expect(edited).toMatchObject({ id: label.id, color: '#00FF00', description: 'Look' });
    const all = z.array(labelEntity).parse(await root.ProjectLabels.all(project.id));
    expect(all.filter((l) => l.is_project_label).map((l) => l.name)).toEqual(['needs review']);
    expect(all.some((l) => !l.is_project_label)).toBe(true);

    const scoped = unique('scope::area ');
    await root.ProjectLabels.create(project.id, scoped, '#123456');
    const promoted = labelEntity.parse(await root.ProjectLabels.promote(project.id, scoped));
    expect(promoted).toMatchObject({ name: scoped, is_project_label: false });
    expect((await root.GroupLabels.all(groupId)).map((l) => l.name)).toContain(scoped);

    await root.ProjectLabels.remove(project.id, label.id);
    const left = z
      .array(labelEntity)
      .parse(await root.ProjectLabels.all(project.id, { includeAncestorGroups: false }));
    expect(left).toEqual([]);
  });

  it('When a milestone is created and closed, then GroupMilestones shows it closed', async () => {
    const milestone = milestoneEntity.parse(
      await root.GroupMilestones.create(groupId, 'v1.0', { dueDate: '2027-01-31' }),
    );
    expect(milestone).toMatchObject({ iid: 1, group_id: groupId, state: 'active', due_date: '2027-01-31' });
    const closed = milestoneEntity.parse(
      await root.GroupMilestones.edit(groupId, milestone.id, { stateEvent: 'close' }),
    );
    expect(closed.state).toBe('closed');
    const shown = milestoneEntity.parse(await root.GroupMilestones.show(groupId, milestone.id));
    expect(shown.state).toBe('closed');
    const all = z.array(milestoneEntity).parse(await root.GroupMilestones.all(groupId, { state: 'closed' }));
    expect(all.map((m) => m.id)).toEqual([milestone.id]);
  });

  it("When ProjectMilestones creates, edits, lists, promotes and removes a project's milestones, then GitLab's answers come back", async () => {
    const project = await root.Projects.create({ name: unique('pmilestones'), namespaceId: groupId });
    const created = projectMilestoneEntity.parse(
      await root.ProjectMilestones.create(project.id, 'p1.0', {
        dueDate: '2027-02-28',
        description: 'First',
      }),
    );
    expect(created).toMatchObject({
      iid: 1,
      project_id: project.id,
      state: 'active',
      due_date: '2027-02-28',
    });
    const closed = projectMilestoneEntity.parse(
      await root.ProjectMilestones.edit(project.id, created.id, { stateEvent: 'close', title: 'p1.1' }),
    );
    expect(closed).toMatchObject({ id: created.id, title: 'p1.1', state: 'closed' });
    const all = z
      .array(projectMilestoneEntity)
      .parse(await root.ProjectMilestones.all(project.id, { state: 'closed' }));
    expect(all.map((m) => m.id)).toEqual([created.id]);
    await expect(root.ProjectMilestones.create(project.id, 'p1.1')).rejects.toMatchObject({
      cause: { response: { status: 400 } },
    });

    const title = unique('promoted ');
    const promotable = projectMilestoneEntity.parse(await root.ProjectMilestones.create(project.id, title));
    await root.ProjectMilestones.promote(project.id, promotable.id);
    const inGroup = z.array(milestoneEntity).parse(await root.GroupMilestones.all(groupId, { title }));
    expect(inGroup).toEqual([expect.objectContaining({ title, group_id: groupId })]);

    await root.ProjectMilestones.remove(project.id, created.id);
    expect(await root.ProjectMilestones.all(project.id)).toEqual([]);
  });

  it('When a board gets lists that are moved and deleted, then positions stay dense and the board goes away', async () => {
    const board = boardEntity.parse(await root.GroupIssueBoards.create(groupId, 'Sprint'));
    expect(board).toMatchObject({ name: 'Sprint', project: null, lists: [], group: { id: groupId } });

    const labels = [];
    for (const name of ['todo', 'doing', 'done']) {
      labels.push(labelEntity.parse(await root.GroupLabels.create(groupId, name, '#0033CC')));
    }
    // gitbeaker types createList's options as Sudo only but sends them as the body (label_id).
    const lists = [];
    for (const label of labels) {
      lists.push(
        boardListEntity.parse(
          await root.GroupIssueBoards.createList(groupId, board.id, { labelId: label.id } as never),
        ),
      );
    }
    expect(lists.map((l) => l.position)).toEqual([0, 1, 2]);

    const moved = boardListEntity.parse(
      await root.GroupIssueBoards.editList(groupId, board.id, lists[0]!.id, 2),
    );
    expect(moved.position).toBe(2);
    const order = async () =>
      z
        .array(boardListEntity)
        .parse(await root.GroupIssueBoards.allLists(groupId, board.id))
        .map((l) => [l.label!.name, l.position]);
    expect(await order()).toEqual([
      ['doing', 0],
      ['done', 1],
      ['todo', 2],
    ]);
    await expect(root.GroupIssueBoards.editList(groupId, board.id, lists[0]!.id, 5)).rejects.toThrow();
    const refused = await api(`/groups/${groupId}/boards/${board.id}/lists/${lists[0]!.id}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ position: 2 }),
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: { error: 'List could not be moved!' } });

    await root.GroupIssueBoards.removeList(groupId, board.id, lists[1]!.id);
    expect(await order()).toEqual([
      ['done', 0],
      ['todo', 1],
    ]);

    const milestone = milestoneEntity.parse(await root.GroupMilestones.create(groupId, 'v2.0'));
    const edited = boardEntity.parse(
      await root.GroupIssueBoards.edit(groupId, board.id, {
        name: 'Sprint 2',
        milestoneId: milestone.id,
        weight: 3,
        hideBacklogList: true,
      }),
    );
    expect(edited).toMatchObject({
      name: 'Sprint 2',
      milestone: { id: milestone.id, iid: milestone.iid },
      weight: 3,
    });
    expect(edited.hide_backlog_list).toBe(true);
    const shown = boardEntity.parse(await root.GroupIssueBoards.show(groupId, board.id));
    expect(shown.milestone).toEqual({ id: milestone.id, title: 'v2.0' });
    expect(shown.lists.map((l) => l.position)).toEqual([0, 1]);

    await root.GroupIssueBoards.remove(groupId, board.id);
    const gone = await api(`/groups/${groupId}/boards/${board.id}`);
    expect(gone.status).toBe(404);
    expect(await gone.json()).toEqual({ message: '404 Not found' });
  });

  async function createUserWithToken(): Promise<{ id: number; token: string }> {
    const username = unique('bdev');
    const user = await root.Users.create({
      username,
      name: `Dev ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await root.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    return { id: user.id, token: token.token };
  }

  it("When a developer and an outsider use a private group's board, then roles decide: 200, 403, 404", async () => {
    const dev = await createUserWithToken();
    const outsider = await createUserWithToken();
    await root.GroupMembers.add(groupId, 30, { userId: dev.id });
    const board = boardEntity.parse(await root.GroupIssueBoards.create(groupId, 'Roles'));
    const label = labelEntity.parse(await root.GroupLabels.create(groupId, unique('role'), '#00AA00'));
    const list = boardListEntity.parse(
      await gitlab(dev.token).GroupIssueBoards.createList(groupId, board.id, { labelId: label.id } as never),
    );
    expect(list.position).toBe(0);
    const removal = await api(`/groups/${groupId}/boards/${board.id}/lists/${list.id}`, {
      method: 'DELETE',
      token: dev.token,
    });
    expect(removal.status).toBe(403);
    const hidden = await api(`/groups/${groupId}/boards`, { token: outsider.token });
    expect(hidden.status).toBe(404);
    expect(await hidden.json()).toEqual({ message: '404 Group Not Found' });

    // The boards service learns users from identity events: an assignee list works once it has.
    let assignee: Response | undefined;
    for (let attempt = 0; attempt < 50; attempt++) {
      assignee = await api(`/groups/${groupId}/boards/${board.id}/lists`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ assignee_id: dev.id }),
      });
      if (assignee.status === 201) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(assignee!.status).toBe(201);
    expect(boardListEntity.parse(await assignee!.json())).toMatchObject({
      label: null,
      position: 1,
      assignee: { id: dev.id },
    });
  });

  it('When the boards are called without a token, then 401', async () => {
    const anonymous = await api(`/groups/${groupId}/boards`, { token: null });
    expect(anonymous.status).toBe(401);
  });

  it('When the boards of an unknown group are called, then 404', async () => {
    const unknown = await api(`/groups/${unique('missing')}/boards`);
    expect(unknown.status).toBe(404);
  });
});
