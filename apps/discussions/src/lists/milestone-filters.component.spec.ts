import { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  EVENT_TYPES,
  issueEntity,
  issuesStatisticsEntity,
  type MilestoneDefinedData,
  type NamespaceContext,
} from '@gl/contracts';
import { OWNER, groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import {
  groupNamespace,
  milestoneDefinition,
  projectNamespace,
  startDiscussionsHarness,
} from '../testing/discussions.harness';
import { memberEventFields } from '../testing/memberships';

const ID = EVENT_TYPES.identity;
const issues = z.array(issueEntity);
const sorted = (items: { title: string }[]) => items.map((i) => i.title).sort();
let nextMilestone = 810_000;

/** A calendar day `days` from today (UTC), as the database's CURRENT_DATE. */
const day = (days: number): string => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('Upcoming and Started milestone filters (IssuableFinder#by_milestone)', () => {
  const h = useHarness(startDiscussionsHarness);

  async function define(groupId: number, fields: Partial<MilestoneDefinedData>): Promise<number> {
    const milestoneId = nextMilestone++;
    const data = milestoneDefinition(milestoneId, { groupId, ...fields });
    await h.deliver(DOMAIN_EVENT_TYPES.boards.milestoneDefined, data, DURABLES.discussionsMilestoneCopies);
    return milestoneId;
  }

  /**
   * G (public) ⊃ S (public); project P in S, project Q in G. G's milestones: due in 3 days (started 5
   * days ago), due in 10, closed and due tomorrow, due today (starting today), starting in 2 days; S's:
   * due in 20.
   */
  async function world() {
    const g = groupNamespace({ visibility: 'public' });
    const s = groupNamespace({ visibility: 'public', ancestorGroupIds: [g.id] });
    for (const group of [g, s]) {
      const fields = groupEventFields(group.id, {
        visibility: 'public',
        ancestorGroupIds: group.ancestorGroupIds,
      });
      await h.deliver(ID.groupCreated, fields);
    }
    const project = async (ancestors: number[]) => {
      const ns = projectNamespace({
        visibility: 'public',
        ancestorGroupIds: ancestors,
        fullPath: `m/p${nextMilestone}`,
      });
      await h.deliver(
        ID.projectCreated,
        projectEventFields(ns.id, {
          visibility: 'public',
          ancestorGroupIds: ancestors,
          fullPath: ns.fullPath,
        }),
      );
      return ns;
    };
    const p = await project([g.id, s.id]);
    const q = await project([g.id]);
    await h.deliver(ID.memberAdded, memberEventFields('group', g.id, OWNER.id, 50));
    const m = {
      soon: await define(g.id, { dueDate: day(3), startDate: day(-5) }),
      later: await define(g.id, { dueDate: day(10) }),
      closed: await define(g.id, { dueDate: day(1), state: 'closed' }),
      today: await define(g.id, { dueDate: day(0), startDate: day(0) }),
      starting: await define(g.id, { startDate: day(2) }),
      sub: await define(s.id, { dueDate: day(20) }),
    };
    const open = async (ns: NamespaceContext, title: string, milestone?: number) => {
      const res = await h.call('POST', `/projects/${ns.id}/issues`, {
        ns,
        level: 50,
        json: { title, ...(milestone && { milestone_id: milestone }) },
      });
      expect(res.status).toBe(201);
    };
    for (const [title, id] of Object.entries(m)) await open(p, title, id);
    await open(p, 'none');
    await open(q, 'q soon', m.soon);
    return { g, s, p, q, m };
  }

  async function list(path: string, ns: NamespaceContext | null, as: typeof OWNER | null = OWNER) {
    const res = await h.call('GET', path, { ns, as });
    expect(res.status).toBe(200);
    return sorted(issues.parse(res.body));
  }

  it('When a project lists Upcoming, then per group of the project and above, the open milestone due next', async () => {
    const { p } = await world();
    const base = `/projects/${p.id}/issues`;
    // G's next is due in 3 days (the closed one tomorrow does not count), S's in 20.
    for (const query of ['milestone_id=Upcoming', 'milestone=Upcoming', 'milestone=%23upcoming']) {
      expect(await list(`${base}?${query}`, p)).toEqual(['soon', 'sub']);
    }
  });

  it('When a project lists Started, then items of open milestones whose start date has come', async () => {
    const { p } = await world();
    const base = `/projects/${p.id}/issues`;
    for (const query of ['milestone_id=Started', 'milestone=started', 'milestone=%23started']) {
      expect(await list(`${base}?${query}`, p)).toEqual(['soon', 'today']);
    }
    const stats = await h.call('GET', `/projects/${p.id}/issues_statistics?milestone_id=Started`, { ns: p });
    expect(issuesStatisticsEntity.parse(stats.body).statistics.counts).toEqual({
      all: 2,
      closed: 0,
      opened: 2,
    });
  });

  it('When Upcoming or Started is negated, then items of open milestones due by today, or starting later', async () => {
    const { p } = await world();
    const base = `/projects/${p.id}/issues`;
    // Milestone.not_upcoming / not_started, through a join: items without a milestone are not among them.
    expect(await list(`${base}?not[milestone_id]=Upcoming`, p)).toEqual(['today']);
    expect(await list(`${base}?not[milestone_id]=Started`, p)).toEqual(['starting']);
  });

  it('When a group lists Upcoming, then only that group’s milestone due next counts (related_groups: the group)', async () => {
    const { g, s } = await world();
    expect(await list(`/groups/${g.id}/issues?milestone_id=Upcoming`, g)).toEqual(['q soon', 'soon']);
    expect(await list(`/groups/${s.id}/issues?milestone_id=Upcoming`, s)).toEqual(['sub']);
    expect(await list(`/groups/${g.id}/issues?milestone_id=Started`, g)).toEqual(['q soon', 'soon', 'today']);
  });

  it('When the instance lists Upcoming, then the caller’s groups and their hierarchy count; an anonymous caller has none', async () => {
    const { p, q } = await world();
    // Other tests' worlds are in the instance too: this one's projects only.
    const ours = async (query: string, as: typeof OWNER | null) => {
      const res = await h.call('GET', `/issues?scope=all&per_page=100&${query}`, { ns: null, as });
      expect(res.status).toBe(200);
      return sorted(issues.parse(res.body).filter((i) => [p.id, q.id].includes(i.project_id)));
    };
    expect(await ours('milestone_id=Upcoming', OWNER)).toEqual(['q soon', 'soon', 'sub']);
    expect(await ours('milestone_id=Upcoming', null)).toEqual([]);
    // Started needs no related groups: any open milestone that has started.
    expect(await ours('milestone_id=Started', null)).toEqual(['q soon', 'soon', 'today']);
  });

  it('When a milestone is redefined, then the filters follow; an older revision changes nothing', async () => {
    const { p, g, m } = await world();
    const base = `/projects/${p.id}/issues?milestone_id=Upcoming`;
    const redefine = (revision: number, fields: Partial<MilestoneDefinedData>) =>
      h.deliver(
        DOMAIN_EVENT_TYPES.boards.milestoneDefined,
        {
          milestoneId: m.soon,
          groupId: g.id,
          iid: m.soon,
          revision,
          title: `m${m.soon}`,
          state: 'active',
          startDate: day(-5),
          dueDate: day(3),
          ...fields,
        },
        DURABLES.discussionsMilestoneCopies,
      );
    await redefine(3, { state: 'closed' });
    expect(await list(base, p)).toEqual(['later', 'sub']);
    await redefine(2, { state: 'active' });
    expect(await list(base, p)).toEqual(['later', 'sub']);
    await redefine(4, { state: 'active', dueDate: day(12) });
    expect(await list(base, p)).toEqual(['later', 'sub']);
  });
});
