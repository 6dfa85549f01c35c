import { useHarness } from '@gl/testing';
import type { ActivityDoc } from '../events.models';
import { activityDoc } from '../testing/activities';
import { startEventsHarness } from '../testing/events.harness';
import { appendEachOnce } from './buckets';
import { RESUME_SEARCH_LIMIT, endOf, positionAfter, readFrom } from './tail';
import { BUCKET_SIZE, type TimelineModels } from './timeline.models';

const activity = (id: number): ActivityDoc => activityDoc(id, { sourceEventId: `tail-${id}` });
const range = (from: number, to: number): ActivityDoc[] =>
  Array.from({ length: to - from + 1 }, (_, i) => activity(from + i));
const ids = (items: ActivityDoc[]): number[] => items.map((i) => i._id);

describe('timeline tails: reading a stream by position', () => {
  const h = useHarness(() => startEventsHarness());
  const t = (): TimelineModels => h.instance.timelines;

  it('When two writers append out of id order, then a reader after the last id it saw misses nothing', async () => {
    const stream = 'tail:reorder';
    // The faster replica's batch (ids 31–50) becomes visible before the slower one's (ids 1–30).
    await appendEachOnce(t(), stream, range(31, 50));
    const seen = await readFrom(t(), stream, 0, 100);
    expect(ids(seen.items)).toEqual(ids(range(31, 50)));
    await appendEachOnce(t(), stream, range(1, 30));
    // A client that saw 50 resumes after it: by id it would ask for "> 50" and lose 1–30.
    const resume = await positionAfter(t(), stream, 50);
    expect(resume).toBe(seen.next);
    expect(ids((await readFrom(t(), stream, resume, 100)).items)).toEqual(ids(range(1, 30)));
    // Resuming after an event in the middle of the late batch goes on right after it.
    const mid = await positionAfter(t(), stream, 10);
    expect(ids((await readFrom(t(), stream, mid, 100)).items)).toEqual(ids(range(11, 30)));
  });

  it('When reads are paged, then pages follow each other across sealed buckets and the open one', async () => {
    const stream = 'tail:pages';
    await appendEachOnce(t(), stream, range(1, 3 * BUCKET_SIZE + 7));
    const got: number[] = [];
    let position = 0;
    for (;;) {
      const page = await readFrom(t(), stream, position, 13);
      if (page.items.length === 0) break;
      got.push(...ids(page.items));
      position = page.next;
    }
    expect(got).toEqual(ids(range(1, 3 * BUCKET_SIZE + 7)));
    expect(position).toBe(await endOf(t(), stream));
  });

  it('When the id is unknown, then it resumes after the newest smaller id, or at the end when it is newer than all', async () => {
    const stream = 'tail:unknown';
    await appendEachOnce(t(), stream, [activity(10), activity(20), activity(30)]);
    expect(await positionAfter(t(), stream, 25)).toBe(2);
    expect(await positionAfter(t(), stream, 99)).toBe(3);
    expect(await positionAfter(t(), stream, 5)).toBe(0);
    expect(await positionAfter(t(), 'tail:empty', 5)).toBe(0);
    expect(RESUME_SEARCH_LIMIT).toBeGreaterThanOrEqual(1_000);
  });
});
