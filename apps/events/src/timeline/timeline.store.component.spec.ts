import type { ActivityDoc } from '../events.models';
import { activityDoc } from '../testing/activities';
import { startEventsHarness } from '../testing/events.harness';
import { BUCKET_SIZE, type TimelineModels } from './timeline.models';
import {
  appendEachOnce,
  appendToStream,
  bucketKey,
  decodeItems,
  encodeItems,
  expireBuckets,
  readHead,
} from './buckets';
import { COUNT_LIMIT, MergedCursor, StreamCursor, pageOf, unfilteredPage } from './cursors';
import { useHarness } from '@gl/testing';

const activity = activityDoc;

const ids = (items: { _id: number }[]): number[] => items.map((item) => item._id);
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** An in-memory cursor over given ids, newest first. */
function listCursor(list: number[]): { next(): Promise<ActivityDoc | null> } {
  let i = 0;
  return { next: () => Promise.resolve(i < list.length ? activity(list[i++]!) : null) };
}

describe('activity timelines', () => {
  const h = useHarness(startEventsHarness);
  let t: TimelineModels;
  let stream: string;
  let streamNo = 0;

  beforeAll(async () => {
    t = h.instance.timelines;
  });
  beforeEach(() => {
    streamNo += 1;
    stream = `test:${streamNo}`;
  });

  async function appendAll(list: number[]): Promise<void> {
    for (const id of list) await appendToStream(t, stream, activity(id));
  }

  describe('appending', () => {
    it('When more events than a bucket holds arrive, then a full bucket is sealed and the newest stay in the head', async () => {
      await appendAll(range(1, BUCKET_SIZE + 5));
      const head = await readHead(t, stream);
      expect(head).toMatchObject({ count: BUCKET_SIZE + 5, lastId: BUCKET_SIZE + 5, start: 0 });
      expect(ids(head.open)).toEqual(range(BUCKET_SIZE + 1, BUCKET_SIZE + 5));
      const sealed = await t.buckets.findOne({ _id: bucketKey(stream, 0) }).lean();
      expect(ids(decodeItems(sealed!.items))).toEqual(range(1, BUCKET_SIZE));
      expect(await t.buckets.countDocuments({ _id: bucketKey(stream, 1) })).toBe(0);
    });

    it('When the same event is appended again, then it is in the stream once', async () => {
      await appendAll([1, 2, 3]);
      expect(await appendToStream(t, stream, activity(3))).toEqual({ appended: false, first: false });
      expect(await appendToStream(t, stream, activity(2))).toEqual({ appended: false, first: false });
      expect((await readHead(t, stream)).count).toBe(3);
    });

    it('When an event is redelivered after newer ones, then it is found in the last buckets and not added twice', async () => {
      await appendAll(range(1, BUCKET_SIZE * 3));
      expect((await appendToStream(t, stream, activity(BUCKET_SIZE + 2))).appended).toBe(false);
      expect((await readHead(t, stream)).count).toBe(BUCKET_SIZE * 3);
    });

    it('When the writer stopped between sealing a bucket and its head, then the redelivered event seals it again, once', async () => {
      await appendAll(range(1, BUCKET_SIZE - 1));
      // Event 20 sealed bucket 0; the head, still holding events 1..19 open, was never written.
      await t.buckets.create({
        _id: bucketKey(stream, 0),
        items: encodeItems(range(1, BUCKET_SIZE).map((id) => activity(id))),
        newestAt: activity(BUCKET_SIZE).createdAt,
      });
      expect((await appendToStream(t, stream, activity(BUCKET_SIZE))).appended).toBe(true);
      await appendToStream(t, stream, activity(BUCKET_SIZE + 1));
      const page = await unfilteredPage(t, stream, 'asc', { skip: 0, take: 100 });
      expect(ids(page.items)).toEqual(range(1, BUCKET_SIZE + 1));
      expect(page.total).toBe(BUCKET_SIZE + 1);
    });

    it('When another event came before the cut-short one was redelivered, then both are in, once each', async () => {
      await appendAll(range(1, BUCKET_SIZE - 1));
      // Event 20 sealed bucket 0 and stopped; event 21 then seals bucket 0 with itself; 20 comes back.
      await t.buckets.create({
        _id: bucketKey(stream, 0),
        items: encodeItems(range(1, BUCKET_SIZE).map((id) => activity(id))),
        newestAt: activity(BUCKET_SIZE).createdAt,
      });
      await appendToStream(t, stream, activity(BUCKET_SIZE + 1));
      expect((await appendToStream(t, stream, activity(BUCKET_SIZE))).appended).toBe(true);
      const page = await unfilteredPage(t, stream, 'asc', { skip: 0, take: 100 });
      expect(ids(page.items).sort((a, b) => a - b)).toEqual(range(1, BUCKET_SIZE + 1));
    });

    it('When a batch is appended, some of it already in, then each event is in once, in order, buckets sealed', async () => {
      await appendAll(range(1, BUCKET_SIZE + 3));
      const batch = [...range(BUCKET_SIZE - 1, BUCKET_SIZE * 3 + 2), BUCKET_SIZE * 3 + 2].map((id) =>
        activity(id),
      );
      expect(await appendEachOnce(t, stream, batch)).toEqual({ appended: true, first: false });
      expect(await appendEachOnce(t, stream, batch.slice(0, 5))).toEqual({ appended: false, first: false });
      const head = await readHead(t, stream);
      expect(head).toMatchObject({ count: BUCKET_SIZE * 3 + 2, lastId: BUCKET_SIZE * 3 + 2 });
      expect(ids(head.open)).toEqual(range(BUCKET_SIZE * 3 + 1, BUCKET_SIZE * 3 + 2));
      const page = await unfilteredPage(t, stream, 'asc', { skip: 0, take: 100 });
      expect(ids(page.items)).toEqual(range(1, BUCKET_SIZE * 3 + 2));
    });

    it('When several writers append to one stream at once, then every event is in it exactly once', async () => {
      const writers = Array.from({ length: 8 }, (_, w) =>
        range(1, 9).map((i) => activity(w * 100 + i, { createdAt: new Date(Date.UTC(2026, 0, 1) + i) })),
      );
      await Promise.all(writers.map((list) => appendEachOnce(t, stream, list)));
      const head = await readHead(t, stream);
      expect(head).toMatchObject({ count: 72, pending: [] });
      const page = await unfilteredPage(t, stream, 'asc', { skip: 0, take: 100 });
      expect(ids(page.items).sort((a, b) => a - b)).toEqual(
        writers
          .flat()
          .map((a) => a._id)
          .sort((a, b) => a - b),
      );
    });

    it('When a writer stopped after its head write, then readers see its sealed bucket and the next append writes it', async () => {
      const sealed = range(1, BUCKET_SIZE).map((id) => activity(id));
      await t.heads.create({
        _id: stream,
        count: BUCKET_SIZE + 1,
        lastId: BUCKET_SIZE + 1,
        start: 0,
        open: encodeItems([activity(BUCKET_SIZE + 1)]),
        pending: JSON.stringify([
          { _id: bucketKey(stream, 0), items: encodeItems(sealed), newestAt: sealed.at(-1)!.createdAt },
        ]),
      });
      const before = await unfilteredPage(t, stream, 'asc', { skip: 0, take: 100 });
      expect(ids(before.items)).toEqual(range(1, BUCKET_SIZE + 1));
      await appendToStream(t, stream, activity(BUCKET_SIZE + 2));
      expect(await t.buckets.countDocuments({ _id: bucketKey(stream, 0) })).toBe(1);
      expect((await readHead(t, stream)).pending).toEqual([]);
      const after = await unfilteredPage(t, stream, 'asc', { skip: 0, take: 100 });
      expect(ids(after.items)).toEqual(range(1, BUCKET_SIZE + 2));
    });

    it('When a whole batch reaching back many buckets is redelivered, then none of it is appended again', async () => {
      const batch = range(1, BUCKET_SIZE * 25).map((id) => activity(id));
      await appendEachOnce(t, stream, batch);
      await appendEachOnce(t, stream, [activity(BUCKET_SIZE * 25 + 1)]);
      expect(await appendEachOnce(t, stream, batch)).toEqual({ appended: false, first: false });
      expect((await readHead(t, stream)).count).toBe(BUCKET_SIZE * 25 + 1);
    });

    it('When an event is a stream first, then the append says so', async () => {
      expect(await appendToStream(t, stream, activity(1))).toEqual({ appended: true, first: true });
      expect(await appendToStream(t, stream, activity(2))).toEqual({ appended: true, first: false });
    });
  });

  describe('reading pages', () => {
    it('When pages are read at any depth and in both orders, then each holds the right events and the total', async () => {
      await appendAll(range(1, 55));
      const desc = await unfilteredPage(t, stream, 'desc', { skip: 20, take: 20 });
      expect(ids(desc.items)).toEqual(range(16, 35).reverse());
      expect(desc).toMatchObject({ total: 55, hasNext: true });
      const last = await unfilteredPage(t, stream, 'desc', { skip: 40, take: 20 });
      expect(ids(last.items)).toEqual(range(1, 15).reverse());
      expect(last.hasNext).toBe(false);
      const asc = await unfilteredPage(t, stream, 'asc', { skip: 18, take: 4 });
      expect(ids(asc.items)).toEqual([19, 20, 21, 22]);
      const past = await unfilteredPage(t, stream, 'desc', { skip: 100, take: 20 });
      expect(past).toEqual({ items: [], total: 55, hasNext: false });
    });

    it('When a stream does not exist, then its page is empty with a total of 0', async () => {
      expect(await unfilteredPage(t, 'test:nothing', 'desc', { skip: 0, take: 20 })).toEqual({
        items: [],
        total: 0,
        hasNext: false,
      });
    });

    it('When events are checked, then hidden ones never shorten a page and the total counts the matching ones', async () => {
      await appendAll(range(1, 50));
      const cursor = new StreamCursor(t, stream, await readHead(t, stream), 'desc');
      const page = await pageOf(cursor, { skip: 5, take: 5 }, (a) => a._id % 2 === 0);
      expect(ids(page.items)).toEqual([40, 38, 36, 34, 32]);
      expect(page).toMatchObject({ total: 25, hasNext: true });
    });

    it('When a long stream is walked in both orders, then every event comes once, read in few, growing reads', async () => {
      const count = BUCKET_SIZE * 70 + 7;
      for (let from = 1; from <= count; from += 500) {
        await appendEachOnce(
          t,
          stream,
          range(from, Math.min(from + 499, count)).map((id) => activity(id)),
        );
      }
      const find = jest.spyOn(t.buckets, 'find');
      const findOne = jest.spyOn(t.buckets, 'findOne');
      try {
        for (const order of ['desc', 'asc'] as const) {
          const cursor = new StreamCursor(t, stream, await readHead(t, stream), order);
          const seen: number[] = [];
          for (let item = await cursor.next(); item; item = await cursor.next()) seen.push(item._id);
          expect(seen).toEqual(order === 'desc' ? range(1, count).reverse() : range(1, count));
        }
        // 70 sealed buckets in reads of 1, 2, 4, 8, 16, 32 and the rest: 7 per walk, not 70.
        expect({ find: find.mock.calls.length, findOne: findOne.mock.calls.length }).toEqual({
          find: 14,
          findOne: 0,
        });
      } finally {
        find.mockRestore();
        findOne.mockRestore();
      }
    });

    it('When more than 10,000 events match, then the page comes without a total and reading stops there', async () => {
      let read = 0;
      const endless = {
        next: () => {
          read += 1;
          return Promise.resolve(activity(read));
        },
      };
      const page = await pageOf(endless, { skip: 0, take: 20 }, () => true);
      expect(page).toMatchObject({ total: null, hasNext: true });
      expect(read).toBe(COUNT_LIMIT + 1);
      const exact = await pageOf(listCursor(range(1, COUNT_LIMIT)), { skip: 0, take: 20 }, () => true);
      expect(exact.total).toBe(COUNT_LIMIT);
    });

    it('When streams are merged, then events come newest first across them', async () => {
      const a = `${stream}:a`;
      const b = `${stream}:b`;
      for (const id of [1, 4, 5, 9]) await appendToStream(t, a, activity(id));
      for (const id of [2, 3, 6, 7, 8]) await appendToStream(t, b, activity(id));
      const cursors = await Promise.all(
        [a, b].map(async (s) => new StreamCursor(t, s, await readHead(t, s), 'desc')),
      );
      const page = await pageOf(new MergedCursor(cursors, 'desc'), { skip: 2, take: 4 }, () => true);
      expect(ids(page.items)).toEqual([7, 6, 5, 4]);
      expect(page.total).toBe(9);
      const ascCursors = await Promise.all(
        [a, b].map(async (s) => new StreamCursor(t, s, await readHead(t, s), 'asc')),
      );
      expect(
        ids((await pageOf(new MergedCursor(ascCursors, 'asc'), { skip: 0, take: 3 }, () => true)).items),
      ).toEqual([1, 2, 3]);
    });
  });

  describe('retention', () => {
    it('When sealed buckets hold only expired events, then they are removed and reading starts after them', async () => {
      await appendAll(range(1, BUCKET_SIZE * 2 + 3));
      // Bucket 0's newest event is event 20; bucket 1 ends with event 40.
      const cutoff = activity(BUCKET_SIZE + 1).createdAt;
      await expireBuckets(t, cutoff);
      expect((await readHead(t, stream)).start).toBe(1);
      const page = await unfilteredPage(t, stream, 'asc', { skip: 0, take: 2 });
      expect(ids(page.items)).toEqual([BUCKET_SIZE + 1, BUCKET_SIZE + 2]);
      expect(page.total).toBe(BUCKET_SIZE + 3);
    });

    it('When every event has expired, then the open bucket stays in the head for the writer to extend', async () => {
      await appendAll(range(1, BUCKET_SIZE + 5));
      await expireBuckets(t, new Date('2100-01-01'));
      const head = await readHead(t, stream);
      expect(head.start).toBe(1);
      expect(ids(head.open)).toEqual(range(BUCKET_SIZE + 1, BUCKET_SIZE + 5));
      expect(await t.buckets.countDocuments({ _id: bucketKey(stream, 0) })).toBe(0);
    });
  });
});
