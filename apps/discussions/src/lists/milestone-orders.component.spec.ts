import { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  EVENT_TYPES,
  issueEntity,
  mergeRequestEntity,
  paramError,
  type MilestoneDefinedData,
  type NamespaceContext,
} from '@gl/contracts';
import { groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import type { DiscussionsModels } from '../discussions.models';
import { createMilestoneCopies, type MilestoneCopies } from '../copies/milestone-copies';
import { createMilestoneRedatingJob } from '../copies/milestone-redating.job';
import { milestoneDueMigration } from '../migrations/milestone-due';
import {
  milestoneDefinition,
  projectNamespace,
  startDiscussionsHarness,
} from '../testing/discussions.harness';

const issues = z.array(issueEntity);
const titles = (items: { title: string }[]) => items.map((i) => i.title);
let nextMilestone = 820_000;

describe('Issue and merge request lists ordered by milestone due date (milestone_due, priority)', () => {
  const h = useHarness(startDiscussionsHarness);

  /** The models the milestone copies and the re-dating job use, from the harness's connection. */
  const copyModels = () => {
    const { models } = h.runtime.connection;
    return {
      noteables: models.Noteable,
      milestones: models.Milestone,
      projects: models.ProjectRef,
      groups: models.GroupRef,
    } as Pick<DiscussionsModels, 'noteables' | 'milestones' | 'projects' | 'groups'>;
  };

  async function define(fields: Partial<MilestoneDefinedData> & { milestoneId?: number }): Promise<number> {
    const milestoneId = fields.milestoneId ?? nextMilestone++;
    const data = milestoneDefinition(milestoneId, fields);
    await h.deliver(DOMAIN_EVENT_TYPES.boards.milestoneDefined, data, DURABLES.discussionsMilestoneCopies);
    return milestoneId;
  }

  /** A project of group 10 (the milestones' group), as the identity events make it known. */
  async function place(): Promise<NamespaceContext> {
    const ns = projectNamespace();
    await h.deliver(EVENT_TYPES.identity.groupCreated, groupEventFields(10));
    const fields = projectEventFields(ns.id, { ancestorGroupIds: [10], fullPath: ns.fullPath });
    await h.deliver(EVENT_TYPES.identity.projectCreated, fields);
    return ns;
  }

  async function open(ns: NamespaceContext, title: string, milestone?: number) {
    const json = { title, ...(milestone && { milestone_id: milestone }) };
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  async function list(ns: NamespaceContext, query: string) {
    const res = await h.call('GET', `/projects/${ns.id}/issues?${query}`, { ns });
    expect(res.status).toBe(200);
    return titles(issues.parse(res.body));
  }

  /** Every page of the list, `perPage` at a time: the pages put together, and X-Total. */
  async function pages(ns: NamespaceContext, query: string, perPage: number) {
    const out: string[] = [];
    let total = '';
    for (let page = 1; page <= 10; page += 1) {
      const res = await h.call('GET', `/projects/${ns.id}/issues?${query}&per_page=${perPage}&page=${page}`, {
        ns,
      });
      total = res.headers.get('x-total') ?? '';
      const items = titles(issues.parse(res.body));
      if (items.length === 0) break;
      out.push(...items);
    }
    return { items: out, total };
  }

  /** March (a), May (b), a milestone without a due date (c), and items without a milestone. */
  async function world() {
    const ns = await place();
    const march = await define({ dueDate: '2026-03-01' });
    const may = await define({ dueDate: '2026-05-01', state: 'closed' });
    const undated = await define({});
    await open(ns, 'may1', may);
    await open(ns, 'mar1', march);
    await open(ns, 'none1');
    await open(ns, 'undated1', undated);
    await open(ns, 'mar2', march);
    await open(ns, 'none2');
    await open(ns, 'undated2', undated);
    return { ns, march, may, undated };
  }

  it('When ordered by milestone_due, then by due date both ways (closed milestones too), then undated milestones, then none; ties newest first', async () => {
    const { ns } = await world();
    const asc = ['mar2', 'mar1', 'may1', 'undated2', 'undated1', 'none2', 'none1'];
    expect(await list(ns, 'order_by=milestone_due&sort=asc')).toEqual(asc);
    const desc = ['may1', 'mar2', 'mar1', 'undated2', 'undated1', 'none2', 'none1'];
    expect(await list(ns, 'order_by=milestone_due&sort=desc')).toEqual(desc);
    // sort defaults to desc.
    expect(await list(ns, 'order_by=milestone_due')).toEqual(desc);
  });

  it('When ordered by priority, then by milestone due date both ways, the rest newest first whether they have a milestone or not', async () => {
    const { ns } = await world();
    const asc = ['mar2', 'mar1', 'may1', 'undated2', 'none2', 'undated1', 'none1'];
    expect(await list(ns, 'order_by=priority&sort=asc')).toEqual(asc);
    const desc = ['may1', 'mar2', 'mar1', 'undated2', 'none2', 'undated1', 'none1'];
    expect(await list(ns, 'order_by=priority&sort=desc')).toEqual(desc);
  });

  it('When the pages of these orders are walked, then every item once, in the order of the whole list, with X-Total', async () => {
    const { ns } = await world();
    for (const query of [
      'order_by=milestone_due&sort=asc',
      'order_by=milestone_due&sort=desc',
      'order_by=priority&sort=asc',
      'order_by=priority&sort=desc',
    ]) {
      const whole = await list(ns, query);
      for (const perPage of [1, 2, 3]) {
        expect(await pages(ns, query, perPage)).toEqual({ items: whole, total: '7' });
      }
    }
  });

  it('When a milestone’s due date changes, then its items move; an older revision changes nothing', async () => {
    const { ns, march } = await world();
    await define({ milestoneId: march, dueDate: '2026-06-01', revision: 3 });
    const asc = ['may1', 'mar2', 'mar1', 'undated2', 'undated1', 'none2', 'none1'];
    expect(await list(ns, 'order_by=milestone_due&sort=asc')).toEqual(asc);
    await define({ milestoneId: march, dueDate: '2026-01-01', revision: 2 });
    expect(await list(ns, 'order_by=milestone_due&sort=asc')).toEqual(asc);
    // Its date removed: among the undated milestones' items.
    await define({ milestoneId: march, dueDate: null, revision: 4 });
    expect(await list(ns, 'order_by=milestone_due&sort=asc')).toEqual([
      'may1',
      'undated2',
      'mar2',
      'undated1',
      'mar1',
      'none2',
      'none1',
    ]);
  });

  it('When an issue’s milestone is set, changed or removed, then it takes that milestone’s due date', async () => {
    const { ns, march, may } = await world();
    const issue = await open(ns, 'moving');
    const put = (milestone: number) =>
      h.call('PUT', `/projects/${ns.id}/issues/${issue.iid}`, { ns, json: { milestone_id: milestone } });
    await put(may);
    expect((await list(ns, 'order_by=milestone_due&sort=desc'))[0]).toBe('moving');
    await put(march);
    expect((await list(ns, 'order_by=milestone_due&sort=asc'))[0]).toBe('moving');
    await put(0);
    expect((await list(ns, 'order_by=milestone_due&sort=asc')).at(-3)).toBe('moving');
  });

  it('When an item’s milestone is copied only after the item was written, then the copy gives it the date', async () => {
    const ns = await place();
    const later = nextMilestone++;
    await open(ns, 'early');
    await open(ns, 'before its milestone', later);
    expect(await list(ns, 'order_by=milestone_due&sort=asc')).toEqual(['before its milestone', 'early']);
    await define({ milestoneId: later, dueDate: '2026-04-01' });
    const dated = await define({ dueDate: '2026-09-01' });
    await open(ns, 'september', dated);
    expect(await list(ns, 'order_by=milestone_due&sort=desc')).toEqual([
      'september',
      'before its milestone',
      'early',
    ]);
  });

  it('When a delivery may re-date only some items, then it says more are left and the next goes on', async () => {
    const { ns, march } = await world();
    const copies = createMilestoneCopies(copyModels());
    const data: MilestoneDefinedData = {
      milestoneId: march,
      groupId: 10,
      iid: march,
      revision: 5,
      title: 'march',
      state: 'active',
      startDate: null,
      dueDate: '2026-08-01',
    };
    expect(await copies.apply(data, 1)).toEqual({ changed: 1, more: true });
    expect(await copies.apply(data, 1)).toEqual({ changed: 1, more: false });
    expect(await copies.apply(data, 1)).toEqual({ changed: 0, more: false });
    expect(await list(ns, 'order_by=milestone_due&sort=desc')).toEqual([
      'mar2',
      'mar1',
      'may1',
      'undated2',
      'undated1',
      'none2',
      'none1',
    ]);
  });

  it('When a delivery leaves items, then the copy is marked and the re-dating job brings them all to the date, then unmarks it', async () => {
    const ns = await place();
    const august = await define({ dueDate: '2026-08-01' });
    for (const title of ['a', 'b', 'c']) await open(ns, title, august);
    const models = copyModels();
    const copies = createMilestoneCopies(models);
    const data = milestoneDefinition(august, { dueDate: '2026-09-01', revision: 7 });
    expect(await copies.apply(data, 1)).toEqual({ changed: 1, more: true });
    expect((await models.milestones.findById(august).lean())?.redating).toBe(true);

    const job = createMilestoneRedatingJob(copies, models, h.runtime.logger, 60_000, 1);
    expect(await job.runOnce()).toBe(2);
    expect((await models.milestones.findById(august).lean())?.redating).toBeUndefined();
    const dues = await models.noteables.find({ milestoneId: august }).select({ milestoneDue: 1 }).lean();
    expect(dues.map((d) => d.milestoneDue)).toEqual(['2026-09-01', '2026-09-01', '2026-09-01']);
    expect(await job.runOnce()).toBe(0);
  });

  it('When the date changes while the job re-dates, then the copy stays marked and the next run brings the items to the new date', async () => {
    const ns = await place();
    const october = await define({ dueDate: '2026-10-01' });
    for (const title of ['a', 'b']) await open(ns, title, october);
    const models = copyModels();
    const copies = createMilestoneCopies(models);
    await models.milestones.updateOne({ _id: october }, { $set: { dueDate: '2026-11-01', redating: true } });
    // The date moves again while the run spreads the first one.
    const moving: MilestoneCopies = {
      ...copies,
      async spreadDue(...args) {
        const spread = await copies.spreadDue(...args);
        await models.milestones.updateOne({ _id: october }, { $set: { dueDate: '2026-12-01' } });
        return spread;
      },
    };
    await createMilestoneRedatingJob(moving, models, h.runtime.logger).runOnce();
    expect((await models.milestones.findById(october).lean())?.redating).toBe(true);
    await createMilestoneRedatingJob(copies, models, h.runtime.logger).runOnce();
    expect((await models.milestones.findById(october).lean())?.redating).toBeUndefined();
    const dues = await models.noteables.find({ milestoneId: october }).select({ milestoneDue: 1 }).lean();
    expect(dues.map((d) => d.milestoneDue)).toEqual(['2026-12-01', '2026-12-01']);
  });

  it('When merge requests are ordered by milestone_due, then the same order', async () => {
    const ns = await place();
    const june = await define({ dueDate: '2026-06-01' });
    const july = await define({ dueDate: '2026-07-01' });
    for (const [title, milestone] of [
      ['june', june],
      ['none', 0],
      ['july', july],
    ] as const) {
      const res = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
        ns,
        json: { source_branch: `b-${title}`, target_branch: 'main', title, milestone_id: milestone },
      });
      expect(res.status).toBe(201);
    }
    const res = await h.call('GET', `/projects/${ns.id}/merge_requests?order_by=milestone_due&sort=asc`, {
      ns,
    });
    expect(titles(z.array(mergeRequestEntity).parse(res.body))).toEqual(['june', 'july', 'none']);
  });

  it('When the order or the milestone wildcard is not one GitLab knows, then 400', async () => {
    const ns = await place();
    const order = await h.call('GET', `/projects/${ns.id}/issues?order_by=milestone`, { ns });
    expect(order.status).toBe(400);
    expect(paramError.parse(order.body)).toEqual({ error: 'order_by does not have a valid value' });
    const wildcard = await h.call('GET', `/projects/${ns.id}/issues?milestone_id=Soon`, { ns });
    expect(wildcard.status).toBe(400);
    expect(paramError.parse(wildcard.body)).toEqual({ error: 'milestone_id does not have a valid value' });
  });

  it('When issues were written before milestoneDue existed, then migration 6 gives them their milestone’s date', async () => {
    const { ns } = await world();
    const before = await list(ns, 'order_by=milestone_due&sort=asc');
    await h.runtime.connection
      .collection('noteables')
      .updateMany({ projectId: ns.id }, { $unset: { milestoneDue: '' } });
    expect(await list(ns, 'order_by=milestone_due&sort=asc')).toEqual([
      'undated2',
      'mar2',
      'undated1',
      'mar1',
      'may1',
      'none2',
      'none1',
    ]);
    await milestoneDueMigration(6).up(h.runtime.connection, h.runtime.logger);
    await milestoneDueMigration(6).up(h.runtime.connection, h.runtime.logger);
    expect(await list(ns, 'order_by=milestone_due&sort=asc')).toEqual(before);
  });
});
