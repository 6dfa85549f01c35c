import {
  labelEntity,
  projectBoardEntity,
  projectBoardListEntity,
  projectMilestoneEntity,
} from '@gl/contracts';
import { z } from 'zod';
import { api, gitlab, unique } from './e2e.helpers';

const boards = z.array(projectBoardEntity);
const lists = z.array(projectBoardListEntity);

async function json(
  path: string,
  init: Parameters<typeof api>[1] = {},
): Promise<{ status: number; body: unknown }> {
  const res = await api(path, init);
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

/**
 * Project issue boards through the gateway with the real client (@gitbeaker/rest ProjectIssueBoards), on the
 * ultimate-tier stack: boards of a project in a group, lists of the project's and the group's labels, a
 * scope on a project milestone, and the refusals (401 anonymous, 404 for a user who cannot see the project).
 */
describe('project issue boards with @gitbeaker/rest', () => {
  const root = gitlab();
  let groupId: number;
  let projectId: number;
  let pathWithNamespace: string;

  beforeAll(async () => {
    const path = unique('pboards');
    groupId = (await root.Groups.create(path, path, { visibility: 'private' })).id;
    const project = await root.Projects.create({ name: unique('web'), namespaceId: groupId });
    projectId = project.id;
    pathWithNamespace = z.string().parse(project.path_with_namespace);
  });

  it("When ProjectIssueBoards creates, lists, edits and removes boards and lists, then GitLab's answers come back", async () => {
    const board = projectBoardEntity.parse(await root.ProjectIssueBoards.create(projectId, 'Development'));
    expect(board).toMatchObject({ name: 'Development', group: null, lists: [] });
    expect(board.project).toMatchObject({ id: projectId, path_with_namespace: pathWithNamespace });
    const other = projectBoardEntity.parse(await root.ProjectIssueBoards.create(projectId, 'Release'));
    const all = boards.parse(await root.ProjectIssueBoards.all(projectId));
    expect(all.map((b) => b.name)).toEqual(['Development', 'Release']);
    const byPath = await json(`/projects/${encodeURIComponent(pathWithNamespace)}/boards?per_page=1&page=2`);
    expect(boards.parse(byPath.body).map((b) => b.id)).toEqual([other.id]);

    const own = labelEntity.parse(await root.ProjectLabels.create(projectId, 'Doing', '#FF0000'));
    const ofGroup = labelEntity.parse(await root.GroupLabels.create(groupId, 'Done', '#00FF00'));
    await root.ProjectIssueBoards.createList(projectId, board.id, { labelId: own.id });
    await root.ProjectIssueBoards.createList(projectId, board.id, { labelId: ofGroup.id });
    const made = lists.parse(await root.ProjectIssueBoards.allLists(projectId, board.id));
    expect(made.map((l) => [l.label?.name, l.position])).toEqual([
      ['Doing', 0],
      ['Done', 1],
    ]);
    const moved = projectBoardListEntity.parse(
      await root.ProjectIssueBoards.editList(projectId, board.id, made[1]!.id, 0),
    );
    expect(moved).toMatchObject({ label: { name: 'Done' }, position: 0 });
    const shown = projectBoardListEntity.parse(
      await root.ProjectIssueBoards.showList(projectId, board.id, made[0]!.id),
    );
    expect(shown.position).toBe(1);

    const milestone = projectMilestoneEntity.parse(await root.ProjectMilestones.create(projectId, 'v1'));
    const scoped = projectBoardEntity.parse(
      await root.ProjectIssueBoards.edit(projectId, board.id, { milestoneId: milestone.id, weight: 3 }),
    );
    expect(scoped).toMatchObject({ milestone: { id: milestone.id, project_id: projectId }, weight: 3 });

    await root.ProjectIssueBoards.removeList(projectId, board.id, made[0]!.id);
    expect(lists.parse(await root.ProjectIssueBoards.allLists(projectId, board.id))).toHaveLength(1);
    await root.ProjectIssueBoards.remove(projectId, other.id);
    const gone = await json(`/projects/${projectId}/boards/${other.id}`);
    expect(gone).toEqual({ status: 404, body: { message: '404 Not found' } });
  });

  it('When an anonymous caller or a user outside the private project asks, then 401 and 404', async () => {
    const anonymous = await json(`/projects/${projectId}/boards`, { token: null });
    expect(anonymous).toEqual({ status: 401, body: { message: '401 Unauthorized' } });
    const username = unique('outsider');
    const user = await root.Users.create({
      username,
      name: username,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    const token = await json(`/users/${user.id}/personal_access_tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'e2e', scopes: ['api'] }),
    });
    const outsider = z.object({ token: z.string() }).parse(token.body).token;
    const hidden = await json(`/projects/${projectId}/boards`, { token: outsider });
    expect(hidden).toEqual({ status: 404, body: { message: '404 Project Not Found' } });
    const write = await json(`/projects/${projectId}/boards`, {
      token: outsider,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Nope' }),
    });
    expect(write.status).toBe(404);
  });
});
