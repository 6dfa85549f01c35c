import { useHarness } from '@gl/testing';
import type { ActivityDoc } from '../events.models';
import { activityDoc } from '../testing/activities';
import { startEventsHarness } from '../testing/events.harness';
import {
  appendEachOnce,
  bucketKey,
  completePending,
  decodeItems,
  eventsOf,
  expireBuckets,
  readHead,
} from './buckets';
import { pageOf, StreamCursor, unfilteredPage, type Order } from './cursors';
import { dropStream, removeFromStream } from './removal';
import { readFrom } from './tail';
import { BUCKET_SIZE, type TimelineModels } from './timeline.models';

const GONE = 9;

const activity = (id: number, authorId: number): ActivityDoc => activityDoc(id, { authorId });

const ids = (items: { _id: number }[]): number[] => items.map((item) => item._id);
const byGone = (item: ActivityDoc) => item.authorId === GONE;

/**
 * Removing a deleted author's events from a shared stream: their slots are marked in place and the head
 * counts the marks, so every page and total is what it would be had the events never been appended.
 */
describe('timeline removal', () => {
  const h = useHarness(startEventsHarness);
  let t: TimelineModels;
  let stream: string;
  let streamNo = 0;

  beforeAll(() => {
    t = h.instance.timelines;
  });
  beforeEach(() => {
    streamNo += 1;
    stream = `removal:${streamNo}`;
  });

  /** Appends ids 1..n; `gone(id)` decides which are the deleted author's. Resolves the others' ids. */
  async function seed(n: number, gone: (id: number) => boolean): Promise<number[]> {
    const list = Array.from({ length: n }, (_, i) => activity(i + 1, gone(i + 1) ? GONE : 3));
    for (let i = 0; i < list.length; i += 7) await appendEachOnce(t, stream, list.slice(i, i + 7));
    return list.filter((a) => a.authorId !== GONE).map((a) => a._id);
  }

  const goneIds = (n: number, gone: (id: number) => boolean) =>
    new Set(Array.from({ length: n }, (_, i) => i + 1).filter(gone));

  /** Every window of the stream read by position equals the same window of the others' events. */
  async function expectEveryPage(others: number[]): Promise<void> {
    for (const order of ['desc', 'asc'] as Order[]) {
      const expected = order === 'desc' ? [...others].reverse() : others;
      for (let skip = 0; skip <= expected.length + 1; skip += 3) {
        const page = await unfilteredPage(t, stream, order, { skip, take: 7 });
        expect({ order, skip, ids: ids(page.items) }).toEqual({
          order,
          skip,
          ids: expected.slice(skip, skip + 7),
        });
        expect(page.total).toBe(others.length);
        expect(page.hasNext).toBe(skip + 7 < others.length);
      }
    }
  }

  it('When a removal marks events in sealed buckets and the open one, then every page and total skips them', async () => {
    // Whole buckets of theirs (41-60), scattered ones, and some in the open bucket (the last 5 events).
    const gone = (id: number) => (id > 40 && id <= 60) || id % 3 === 0 || id > 100;
    const others = await seed(105, gone);
    const result = await removeFromStream(t, stream, byGone, goneIds(105, gone));
    expect(result.removed).toBe(goneIds(105, gone).size);
    await expectEveryPage(others);
    const head = await readHead(t, stream);
    expect([...head.holes.values()].reduce((a, b) => a + b, 0)).toBe(105 - others.length);
    // A checked read (pageOf) and a live read (by position) pass the marks over too.
    const checked = await pageOf(
      new StreamCursor(t, stream, head, 'desc'),
      { skip: 0, take: 200 },
      () => true,
    );
    expect(ids(checked.items)).toEqual([...others].reverse());
    expect(ids((await readFrom(t, stream, 0, 200)).items)).toEqual(others);
    // No removed event's content is left in any bucket.
    for (let n = 0; n < 5; n++) {
      const bucket = await t.buckets.findOne({ _id: bucketKey(stream, n) }).lean();
      expect(eventsOf(decodeItems(bucket!.items)).some(byGone)).toBe(false);
    }
  });

  it('When it runs again, or was cut short before writing the head, then the counts are recounted, not added', async () => {
    const gone = (id: number) => id % 2 === 0;
    const others = await seed(63, gone);
    // Cut short: only the events up to 30 were looked for.
    const first = await removeFromStream(t, stream, byGone, goneIds(30, gone));
    // Cut short between a bucket's write and the head's: the head forgets bucket 1's marks.
    await t.heads.updateOne({ _id: stream }, { $set: { holes: JSON.stringify({ 0: 10 }) } });
    const again = await removeFromStream(t, stream, byGone, goneIds(63, gone));
    expect(first.removed + again.removed).toBe(goneIds(63, gone).size);
    await removeFromStream(t, stream, byGone, goneIds(63, gone));
    await expectEveryPage(others);
  });

  it('When events are appended after a removal, then the open bucket seals with its marks and pages stay right', async () => {
    const gone = (id: number) => id > 12 && id <= 18;
    const others = await seed(18, gone);
    await removeFromStream(t, stream, byGone, goneIds(18, gone));
    const more = Array.from({ length: 30 }, (_, i) => activity(19 + i, 3));
    await appendEachOnce(t, stream, more);
    await expectEveryPage([...others, ...ids(more)]);
    expect((await readHead(t, stream)).holes.get(0)).toBe(6);
  });

  it('When appends race with a removal, then neither is lost', async () => {
    const gone = (id: number) => id % 4 === 0;
    const others = await seed(200, gone);
    const more = Array.from({ length: 60 }, (_, i) => activity(201 + i, 3));
    await Promise.all([
      removeFromStream(t, stream, byGone, goneIds(200, gone)),
      (async () => {
        for (let i = 0; i < more.length; i += 3) await appendEachOnce(t, stream, more.slice(i, i + 3));
      })(),
    ]);
    await expectEveryPage([...others, ...ids(more)]);
  });

  it('When an append races with a removal in the open bucket, then neither overwrites the other', async () => {
    for (let round = 0; round < 40; round++) {
      stream = `removal:${streamNo}:open-race:${round}`;
      const gone = (id: number) => id > 20 && id % 2 === 0;
      const others = await seed(29, gone);
      const more = [activity(30, 3), activity(31, 3)];
      await Promise.all([
        removeFromStream(t, stream, byGone, goneIds(29, gone)),
        appendEachOnce(t, stream, more),
      ]);
      await expectEveryPage([...others, 30, 31]);
    }
  });

  it('When a late writer finishes a pending bucket a removal already marked, then the marks stay', async () => {
    const others = await seed(25, (id) => id === 5);
    const head = await readHead(t, stream);
    // What a writer that read the head when bucket 0 was still pending would write.
    const stale = {
      ...head,
      pending: [{ ...(await t.buckets.findOne({ _id: bucketKey(stream, 0) }).lean())! }],
    };
    await removeFromStream(t, stream, byGone, new Set([5]));
    await completePending(t, stream, stale);
    await expectEveryPage(others);
  });

  it('When retention removes marked buckets, then the totals no longer count their marks', async () => {
    const gone = (id: number) => id <= 10;
    const others = await seed(45, gone);
    await removeFromStream(t, stream, byGone, goneIds(45, gone));
    await expireBuckets(t, activity(BUCKET_SIZE + 1, 3).createdAt);
    await expectEveryPage(others.filter((id) => id > BUCKET_SIZE));
  });

  it("When the deleted author's own stream is dropped, then its head and buckets are gone", async () => {
    await seed(45, () => true);
    expect(await dropStream(t, stream)).toBe(2);
    expect(await t.heads.countDocuments({ _id: stream })).toBe(0);
    expect(await t.buckets.countDocuments({ _id: bucketKey(stream, 0) })).toBe(0);
    expect(await dropStream(t, stream)).toBe(0);
  });
});
