import { z } from 'zod';
import { DOMAIN_EVENT_TYPES, DURABLES, issueEntity, type NamespaceContext } from '@gl/contracts';
import { OWNER, gatewayEvent, useHarness } from '@gl/testing';
import {
  milestoneDefinition,
  projectNamespace,
  startDiscussionsHarness,
} from '../testing/discussions.harness';

const BOARDS = DOMAIN_EVENT_TYPES.boards;
const issues = z.array(issueEntity);
let next = 940_000;

/**
 * Project milestones reach issues (`gl.boards.project_milestone.defined` / `.removed`): an issue takes one,
 * lists find it by title, its due date follows the milestone, and a deleted or promoted milestone leaves
 * its items (Milestones::DestroyService) or moves them to the group milestone (Milestones::PromoteService).
 */
describe('Project milestones on issues', () => {
  const h = useHarness(startDiscussionsHarness);
  const copies = (type: string, data: Record<string, unknown>) =>
    h.deliver(type, data, DURABLES.discussionsMilestoneCopies);

  async function projectMilestone(ns: NamespaceContext, fields: Record<string, unknown> = {}) {
    const milestoneId = next++;
    const { groupId: _group, ...group } = milestoneDefinition(milestoneId, { title: `pm${milestoneId}` });
    await copies(BOARDS.projectMilestoneDefined, { ...group, projectId: ns.id, ...fields });
    return milestoneId;
  }

  async function issueOn(ns: NamespaceContext, milestoneId: number) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: `on ${milestoneId}`, milestone_id: milestoneId },
    });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  const stored = (id: number) =>
    h.runtime.connection
      .collection('noteables')
      .findOne({ _id: id as never }, { projection: { milestoneDue: 1 } });

  it('When an issue is put on a project milestone, then it shows it, lists find it by title and its date follows', async () => {
    const ns = projectNamespace();
    const milestoneId = await projectMilestone(ns, { dueDate: '2026-12-01' });
    const issue = await issueOn(ns, milestoneId);
    expect(issue.milestone).toMatchObject({ id: milestoneId, iid: milestoneId, title: `pm${milestoneId}` });
    const listed = await h.call('GET', `/projects/${ns.id}/issues?milestone=pm${milestoneId}`, { ns });
    expect(issues.parse(listed.body).map((i) => i.id)).toEqual([issue.id]);
    expect((await stored(issue.id))?.milestoneDue).toBe('2026-12-01');

    const { groupId: _group, ...later } = milestoneDefinition(milestoneId, {
      title: `pm${milestoneId}`,
      dueDate: '2027-01-15',
      revision: 2,
    });
    await copies(BOARDS.projectMilestoneDefined, { ...later, projectId: ns.id });
    expect((await stored(issue.id))?.milestoneDue).toBe('2027-01-15');
  });

  it("When a project milestone's issues and merge requests are listed, then its own; another project's milestone is 404", async () => {
    const ns = projectNamespace();
    const milestoneId = await projectMilestone(ns);
    const issue = await issueOn(ns, milestoneId);
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'elsewhere' } });
    const listed = await h.call('GET', `/projects/${ns.id}/milestones/${milestoneId}/issues`, { ns });
    expect(listed.status).toBe(200);
    expect(issues.parse(listed.body).map((i) => i.id)).toEqual([issue.id]);
    expect(listed.headers.get('x-total')).toBe('1');
    const mrs = await h.call('GET', `/projects/${ns.id}/milestones/${milestoneId}/merge_requests`, { ns });
    expect(mrs).toMatchObject({ status: 200, body: [] });

    const other = projectNamespace();
    const theirs = await projectMilestone(other);
    for (const id of [theirs, 999_999]) {
      const res = await h.call('GET', `/projects/${ns.id}/milestones/${id}/issues`, { ns });
      expect(res).toMatchObject({ status: 404, body: { message: '404 Not found' } });
    }
  });

  it('When a project milestone is deleted, then its issues lose it; promoted, they move to the group milestone', async () => {
    const ns = projectNamespace();
    const deleted = await projectMilestone(ns);
    const promoted = await projectMilestone(ns);
    const groupMilestone = next++;
    await copies(BOARDS.milestoneDefined, milestoneDefinition(groupMilestone, { dueDate: '2026-10-10' }));
    const loses = await issueOn(ns, deleted);
    const moves = await issueOn(ns, promoted);

    const removed = (milestoneId: number, mergedInto: number | null) =>
      copies(BOARDS.projectMilestoneRemoved, {
        milestoneId,
        projectId: ns.id,
        iid: milestoneId,
        title: `pm${milestoneId}`,
        mergedInto,
      });
    await removed(deleted, null);
    await removed(promoted, groupMilestone);
    await removed(promoted, groupMilestone); // delivered again: nothing more changes

    const read = async (iid: number) =>
      issueEntity.parse((await h.call('GET', `/projects/${ns.id}/issues/${iid}`, { ns })).body);
    expect((await read(loses.iid)).milestone).toBeNull();
    expect((await read(moves.iid)).milestone).toMatchObject({ id: groupMilestone });
    expect((await stored(moves.id))?.milestoneDue).toBe('2026-10-10');
  });

  it("When a project milestone is deleted by a user, then each item leaves it with GitLab's system note and resource event", async () => {
    const ns = projectNamespace();
    const milestoneId = await projectMilestone(ns);
    const issue = await issueOn(ns, milestoneId);
    const subscription = h.instance.subscriptions!.find(
      (s) => s.durable === DURABLES.discussionsMilestoneCopies,
    )!;
    const removal = {
      ...gatewayEvent(BOARDS.projectMilestoneRemoved, {
        milestoneId,
        projectId: ns.id,
        iid: milestoneId,
        title: `pm${milestoneId}`,
        mergedInto: null,
      }),
      actor: { id: OWNER.id, username: OWNER.username, name: OWNER.name },
      projectId: ns.id,
    };
    await subscription.handle(removal);
    await subscription.handle(removal); // delivered again: no second note

    const read = await h.call('GET', `/projects/${ns.id}/issues/${issue.iid}`, { ns });
    expect(issueEntity.parse(read.body).milestone).toBeNull();
    const notes = await h.call('GET', `/projects/${ns.id}/issues/${issue.iid}/notes`, { ns });
    const system = (notes.body as { body: string; system: boolean; author: { id: number } }[]).filter(
      (n) => n.system,
    );
    expect(system.map((n) => [n.body, n.author.id])).toEqual([['removed milestone', OWNER.id]]);
    const events = await h.call('GET', `/projects/${ns.id}/issues/${issue.iid}/resource_milestone_events`, {
      ns,
    });
    expect((events.body as { action: string }[]).map((e) => e.action)).toEqual(['add', 'remove']);
  });
});
