import { api, eventually, gitlab, unique } from './e2e.helpers';

/** The day `offset` days from today (UTC). */
function day(offset: number): string {
  return new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
}

type Listed = { title: string }[];

/**
 * Upcoming / Started and the milestone_due order end to end: milestones written in the boards service reach
 * discussions' copy as gl.boards.milestone.defined, which the issue lists read.
 */
describe('issue lists by milestone dates through the gateway', () => {
  const root = gitlab();

  it('When milestones are dated and changed, then Upcoming, Started and order_by=milestone_due follow', async () => {
    const path = unique('msl');
    const group = await root.Groups.create(path, path, { visibility: 'private' });
    const project = await root.Projects.create({ name: 'app', namespaceId: group.id });
    const soon = await root.GroupMilestones.create(group.id, 'soon', { dueDate: day(3), startDate: day(-2) });
    const later = await root.GroupMilestones.create(group.id, 'later', { dueDate: day(9) });
    const undated = await root.GroupMilestones.create(group.id, 'undated');
    for (const [title, milestone] of [
      ['in soon', soon.id],
      ['in later', later.id],
      ['in undated', undated.id],
      ['in none', 0],
    ] as const) {
      await root.Issues.create(project.id, title, { milestoneId: milestone || undefined });
    }
    const list = async (query: string) =>
      ((await (await api(`/projects/${project.id}/issues?${query}`)).json()) as Listed).map((i) => i.title);
    expect(
      await eventually(
        () => list('milestone_id=Upcoming'),
        (titles) => titles.join() === 'in soon',
      ),
    ).toEqual(['in soon']);
    expect(await list('milestone=Started')).toEqual(['in soon']);
    expect(
      await eventually(
        () => list('order_by=milestone_due&sort=asc'),
        (titles) => titles.join() === 'in soon,in later,in undated,in none',
      ),
    ).toEqual(['in soon', 'in later', 'in undated', 'in none']);
    // Closing the soonest makes the next one upcoming, and re-dates its issues in the order.
    await root.GroupMilestones.edit(group.id, soon.id, { stateEvent: 'close', dueDate: day(30) });
    expect(
      await eventually(
        () => list('milestone_id=Upcoming'),
        (titles) => titles.join() === 'in later',
      ),
    ).toEqual(['in later']);
    expect(
      await eventually(
        () => list('order_by=milestone_due&sort=desc'),
        (titles) => titles.join() === 'in soon,in later,in undated,in none',
      ),
    ).toEqual(['in soon', 'in later', 'in undated', 'in none']);
    const gitbeaker = await root.Issues.all({ projectId: project.id, milestoneId: 'Started' } as never);
    expect((gitbeaker as Listed).map((i) => i.title)).toEqual([]);
  });
});
