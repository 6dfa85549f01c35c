import pino from 'pino';
import { DOMAIN_EVENT_TYPES, DURABLES, issueEntity } from '@gl/contracts';
import { useHarness } from '@gl/testing';
import {
  milestoneDefinition,
  projectNamespace,
  startDiscussionsHarness,
} from '../testing/discussions.harness';
import type { MilestoneDoc } from './copies.models';
import { createMilestoneCache, shareMilestoneCache } from './milestone-cache';

let nextMilestone = 830_000;

describe('Milestone copies kept in process (milestone-cache.ts)', () => {
  const h = useHarness(startDiscussionsHarness);

  const define = (milestoneId: number, title: string, revision: number) =>
    h.deliver(
      DOMAIN_EVENT_TYPES.boards.milestoneDefined,
      milestoneDefinition(milestoneId, { title, revision }),
      DURABLES.discussionsMilestoneCopies,
    );

  async function milestoneOf(ns: ReturnType<typeof projectNamespace>, iid: number) {
    const res = await h.call('GET', `/projects/${ns.id}/issues/${iid}`, { ns });
    return issueEntity.parse(res.body).milestone;
  }

  it('When boards renames a milestone, then the next request after the event shows the new title, in lists too', async () => {
    const ns = projectNamespace();
    const id = nextMilestone++;
    await define(id, 'v1', 1);
    const created = await h.call('POST', `/projects/${ns.id}/issues`, {
      ns,
      json: { title: 'a', milestone_id: id },
    });
    expect(issueEntity.parse(created.body).milestone).toEqual({ id, iid: id, title: 'v1' });
    expect(await milestoneOf(ns, 1)).toEqual({ id, iid: id, title: 'v1' });

    await define(id, 'v2', 2);
    expect(await milestoneOf(ns, 1)).toEqual({ id, iid: id, title: 'v2' });
    const list = await h.call('GET', `/projects/${ns.id}/issues`, { ns });
    expect((list.body as Array<{ milestone: unknown }>)[0]!.milestone).toEqual({ id, iid: id, title: 'v2' });
  });

  it('When a milestone is first copied after an issue showed it unknown, then the next request shows its title', async () => {
    const ns = projectNamespace();
    const id = nextMilestone++;
    await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'early', milestone_id: id } });
    expect(await milestoneOf(ns, 1)).toEqual({ id, iid: null, title: null });
    await h.deliver(
      DOMAIN_EVENT_TYPES.boards.milestoneOpened,
      { targetId: id, targetIid: 3, targetTitle: 'late' },
      DURABLES.discussionsMilestones,
    );
    expect(await milestoneOf(ns, 1)).toEqual({ id, iid: 3, title: 'late' });
  });

  it('When one replica writes a copy, then another replica on the same bus forgets its own', async () => {
    const id = nextMilestone++;
    await define(id, 'before', 1);
    const collection = h.runtime.connection.collection<MilestoneDoc>('milestones');
    const peer = createMilestoneCache(async (ids) => collection.find({ _id: { $in: ids } }).toArray());
    const shared = shareMilestoneCache(peer, h.runtime.bus, pino({ level: 'silent' }));
    try {
      expect((await peer.one(id))?.title).toBe('before');
      await define(id, 'after', 2);
      const deadline = Date.now() + 5_000;
      let title = (await peer.one(id))?.title;
      while (title !== 'after' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        title = (await peer.one(id))?.title;
      }
      expect(title).toBe('after');
    } finally {
      shared.close();
    }
  });
});
