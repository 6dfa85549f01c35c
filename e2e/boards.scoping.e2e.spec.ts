import { boardEntity, boardListEntity, iterationEntity, labelEntity, milestoneEntity } from '@gl/contracts';
import { z } from 'zod';
import { api, gitlab, runClient, unique } from './e2e.helpers';

/** Debian's interpreter, where python3-gitlab (3.12) is installed (see python-gitlab.e2e.spec.ts). */
const PYTHON = '/usr/bin/python3';

/** The day `offset` days from today (UTC). */
function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Board scoping and iteration lists through the gateway with the real clients, on the ultimate-tier stack:
 * @gitbeaker/rest 43.8 (GroupIssueBoards.edit sends its options as the PUT body, GroupIterations.all the
 * filters as the query) and python-gitlab 3.12 (`board.save()` sends the changed attributes only).
 */
describe('board scoping and iteration lists with real clients', () => {
  const root = gitlab();
  let groupId: number;
  let groupPath: string;

  beforeAll(async () => {
    groupPath = unique('scoping');
    groupId = (await root.Groups.create(groupPath, groupPath, { visibility: 'private' })).id;
  });

  it('When gitbeaker scopes a board, then predefined milestones, new labels and clearing assignees work as GitLab', async () => {
    const board = boardEntity.parse(await root.GroupIssueBoards.create(groupId, 'Scoped'));
    const milestone = milestoneEntity.parse(await root.GroupMilestones.create(groupId, 'm1'));
    const existing = labelEntity.parse(await root.GroupLabels.create(groupId, 'bug', '#FF0000'));

    const username = unique('scoper');
    const user = await root.Users.create({
      username,
      name: `Scoper ${username}`,
      email: `${username}@example.com`,
      password: 'correct-horse-battery-staple',
    });
    // The boards service learns users from identity events: the assignee scope holds once it has.
    let scoped = boardEntity.parse(await root.GroupIssueBoards.show(groupId, board.id));
    for (let attempt = 0; attempt < 50 && scoped.assignee === null; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 100));
      scoped = boardEntity.parse(
        await root.GroupIssueBoards.edit(groupId, board.id, {
          milestoneId: -2,
          labels: 'bug, feature',
          assigneeId: user.id,
        }),
      );
    }
    expect(scoped.milestone).toEqual({ title: 'Upcoming' });
    expect(scoped.labels.map((l) => [l.id === existing.id, l.name, l.color])).toEqual([
      [true, 'bug', '#FF0000'],
      [false, 'feature', '#6699cc'],
    ]);
    expect(scoped.assignee).toMatchObject({ id: user.id, username });
    const labels = await root.GroupLabels.all(groupId);
    expect(labels.map((l) => l.name).sort()).toEqual(['bug', 'feature']);

    // An unknown assignee clears the scope; an unknown milestone leaves the board's milestone alone.
    await root.GroupIssueBoards.edit(groupId, board.id, { milestoneId: milestone.id });
    const cleared = boardEntity.parse(
      await root.GroupIssueBoards.edit(groupId, board.id, { assigneeId: 987654321, milestoneId: 987654321 }),
    );
    expect(cleared.assignee).toBeNull();
    expect(cleared.milestone).toMatchObject({ id: milestone.id, title: 'm1' });
    const shown = boardEntity.parse(await root.GroupIssueBoards.show(groupId, board.id));
    expect(shown.milestone).toEqual({ id: milestone.id, title: 'm1' });
  });

  it('When python-gitlab saves a board with milestone_id None and new labels, then the milestone is cleared', async () => {
    const board = boardEntity.parse(await root.GroupIssueBoards.create(groupId, 'Py'));
    const milestone = milestoneEntity.parse(await root.GroupMilestones.create(groupId, unique('pm')));
    await root.GroupIssueBoards.edit(groupId, board.id, { milestoneId: milestone.id });
    const script = [
      'import gitlab, json, os',
      "gl = gitlab.Gitlab(os.environ['GL_URL'], private_token=os.environ['GL_TOKEN'])",
      `group = gl.groups.get(${groupId})`,
      `board = group.boards.get(${board.id})`,
      'board.milestone_id = None',
      "board.labels = 'py-one,py-two'",
      'board.save()',
      `again = group.boards.get(${board.id})`,
      "its = group.iterations.list(state='all', include_ancestors=True)",
      "print(json.dumps({'ok': True, 'checked': [again.milestone, [l['name'] for l in again.labels], type(its).__name__]}))",
    ].join('\n');
    expect(runClient(PYTHON, ['-c', script])).toEqual({
      status: 0,
      output: { ok: true, checked: [null, ['py-one', 'py-two'], 'list'] },
      stderr: '',
    });
  });

  it('When iterations are created and listed by gitbeaker, then filters work and an iteration list shows the iteration', async () => {
    const post = async (json: Record<string, unknown>) => {
      const res = await api(`/groups/${groupId}/iterations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(json),
      });
      expect(res.status).toBe(201);
      return iterationEntity.parse(await res.json());
    };
    const closed = await post({ title: 'Sprint 0', start_date: day(-20), due_date: day(-10) });
    const current = await post({ title: 'Sprint 1', start_date: day(-2), due_date: day(5) });
    const upcoming = await post({ title: 'Sprint 2', start_date: day(6), due_date: day(19) });
    expect([closed.state, current.state, upcoming.state]).toEqual([3, 2, 1]);
    expect(current.web_url).toMatch(new RegExp(`/groups/${groupPath}/-/iterations/${current.id}$`));

    const overlap = await api(`/groups/${groupId}/iterations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ start_date: day(0), due_date: day(1) }),
    });
    expect(overlap.status).toBe(400);
    expect(await overlap.json()).toEqual({
      message: {
        base: ['Dates cannot overlap with other existing Iterations within this iterations cadence'],
      },
    });

    const ids = async (options: Parameters<typeof root.GroupIterations.all>[1]) =>
      z
        .array(iterationEntity)
        .parse(await root.GroupIterations.all(groupId, options))
        .map((i) => i.id);
    expect(await ids({})).toEqual([closed.id, current.id, upcoming.id]);
    expect(await ids({ state: 'opened' })).toEqual([current.id, upcoming.id]);
    expect(await ids({ state: 'closed' })).toEqual([closed.id]);
    expect(await ids({ search: 'sprint 2' })).toEqual([upcoming.id]);
    expect(await ids({ includeAncestors: false, state: 'current' })).toEqual([current.id]);
    // Descendants and the cadence's title ("<group name> Iterations"), by raw query: gitbeaker has no option.
    const wide = await api(
      `/groups/${groupId}/iterations?include_descendants=true&search=${groupPath}%20iterations&in[]=cadence_title`,
    );
    expect(
      z
        .array(iterationEntity)
        .parse(await wide.json())
        .map((i) => i.id),
    ).toEqual([closed.id, current.id, upcoming.id]);

    const board = boardEntity.parse(await root.GroupIssueBoards.create(groupId, 'Iterations'));
    // gitbeaker types createList's options as label, assignee or milestone, and sends iteration_id as well.
    const list = boardListEntity.parse(
      await root.GroupIssueBoards.createList(groupId, board.id, { iterationId: current.id } as never),
    );
    expect(list).toMatchObject({
      label: null,
      position: 0,
      iteration: { id: current.id, title: 'Sprint 1' },
    });
    const lists = z.array(boardListEntity).parse(await root.GroupIssueBoards.allLists(groupId, board.id));
    expect(lists.map((l) => l.iteration?.id)).toEqual([current.id]);
    await expect(
      root.GroupIssueBoards.createList(groupId, board.id, { iterationId: current.id } as never),
    ).rejects.toThrow();
  });
});
