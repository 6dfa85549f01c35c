import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { useHarness } from '@gl/testing';
import { createActivityLogStore } from './activity-log.store';
import { streams } from './activity-scopes';
import { LEASE_MS, createActivitySequence, type ActivitySequence } from './activity-sequence';
import { createActivityRecorder } from './activity.consumer';
import type { ActivityDoc } from './events.models';
import { createLiveLog } from './stream/live-log';
import { createStreamTails } from './stream/stream-tails';
import { activityDoc } from './testing/activities';
import { targetEvent } from './testing/envelopes';
import { startEventsHarness } from './testing/events.harness';

const ids = (items: ActivityDoc[]): number[] => items.map((i) => i._id);

/**
 * Two replicas' batches take their ids in one order and may be written in the other: live readers go no
 * further than the settled id, so a reader that goes on from the last id it saw misses nothing.
 */
describe('activity ids: leases and the settled id', () => {
  const h = useHarness(() => startEventsHarness());
  const sequence = () => createActivitySequence(h.runtime.connection);
  const log = () => createActivityLogStore(h.instance.models.activities);
  const batch = (first: number, n: number, projectId: number) =>
    Array.from({ length: n }, (_, i) =>
      activityDoc(first + i, { projectId, sourceEventId: `lease-${projectId}-${first + i}` }),
    );

  it('When a later batch is written before an earlier one, then readers stop before the earlier until it is written', async () => {
    const PROJECT = 8101;
    const seq = sequence();
    const live = createLiveLog(log(), seq);
    const tails = createStreamTails(live);
    const stream = streams.project(PROJECT);
    await tails.follow(stream);
    const start = tails.end(stream);
    const slow = await seq.open(3);
    const fast = await seq.open(3);
    await log().record(batch(fast.first, 3, PROJECT));
    expect(await seq.close(fast.token)).toBe(true);
    expect(await seq.settled()).toBe(slow.first - 1);
    tails.refresh([stream]);
    await h.eventually(
      async () => tails.read(stream, start),
      (read) => read.next === slow.first - 1,
    );
    expect((await tails.read(stream, start)).items).toEqual([]);

    await log().record(batch(slow.first, 3, PROJECT));
    expect(await seq.close(slow.token)).toBe(true);
    tails.refresh([stream]);
    const read = await h.eventually(
      async () => tails.read(stream, start),
      (r) => r.items.length === 6,
    );
    expect(ids(read.items)).toEqual([...ids(batch(slow.first, 3, 0)), ...ids(batch(fast.first, 3, 0))]);
    // A client resuming after the last id of the earlier batch gets the later one, once.
    const resumed = await live.resumeAfter(stream, slow.first + 2);
    expect(ids((await tails.read(stream, resumed)).items)).toEqual(ids(batch(fast.first, 3, 0)));
    tails.unfollow(stream);
  });

  it('When a lease was not renewed for LEASE_MS, then it no longer holds readers back and the next writer removes it', async () => {
    const seq = sequence();
    const dead = await seq.open(2);
    const counters = h.runtime.connection.collection<{ _id: string }>('counters');
    await counters.updateOne(
      { _id: 'activities' },
      { $set: { [`open.${dead.token}.at`]: new Date(Date.now() - LEASE_MS - 1_000) } },
    );
    const next = await seq.open(1);
    expect(await seq.settled()).toBe(next.first - 1);
    expect(await seq.close(dead.token)).toBe(false);
    expect(await seq.close(next.token)).toBe(true);
    expect(await seq.settled()).toBe(next.first);
  });

  it('When a batch’s lease was taken for dead while it was written, then its events are written again under new ids, once', async () => {
    const PROJECT = 8102;
    const real = sequence();
    let first = true;
    const forgetful: ActivitySequence = {
      ...real,
      async close(token) {
        // The writer stalled past LEASE_MS: another writer removed its lease.
        const closed = await real.close(token);
        if (!first) return closed;
        first = false;
        return false;
      },
    };
    const recorder = createActivityRecorder(h.instance.models, forgetful);
    const events = [1, 2, 3].map((iid) =>
      targetEvent(DOMAIN_EVENT_TYPES.discussions.issueOpened, PROJECT, {
        targetId: iid,
        targetIid: iid,
        targetTitle: `Stalled ${iid}`,
      }),
    );
    const settledBefore = await real.settled();
    await recorder.applyBatch(events);
    const stored = await h.instance.models.activities.find({ projectId: PROJECT }).sort({ _id: 1 }).lean();
    expect(stored.map((a) => a.targetIid)).toEqual([1, 2, 3]);
    // The first ids (settledBefore + 1…3) were given up; the events carry ids taken after them.
    expect(stored.every((a) => a._id > settledBefore + 3)).toBe(true);
    const records = await h.instance.models.ingested.find({ _id: { $in: events.map((e) => e.id) } }).lean();
    expect(records.map((r) => r.activityId).sort()).toEqual(ids(stored).sort());
  });

  it('When a batch is recorded again after its first events were stored (a crash between), then the rest are stored too', async () => {
    const PROJECT = 8103;
    const seq = sequence();
    const opened = await seq.open(3);
    const all = batch(opened.first, 3, PROJECT);
    await log().record(all.slice(0, 1));
    // The first collides; a server that stops an unordered insert there must not lose the other two.
    const again = await log().record(all);
    expect([...again.ids.values()]).toEqual(ids(all));
    const stored = await h.instance.models.activities.find({ projectId: PROJECT }).sort({ _id: 1 }).lean();
    expect(ids(stored)).toEqual(ids(all));
    await seq.close(opened.token);
  });
});
