import type { Counters } from './counters';
import { withIdBlocks } from './id-blocks';

/** A sequence in memory that counts its round trips. */
function memoryCounters() {
  const values = new Map<string, number>();
  const calls: string[] = [];
  const counters: Counters = {
    async next(key) {
      calls.push(`next ${key}`);
      values.set(key, (values.get(key) ?? 0) + 1);
      return values.get(key)!;
    },
    async nextMany(key, n) {
      calls.push(`nextMany ${key} ${n}`);
      await new Promise((r) => setTimeout(r, 5));
      values.set(key, (values.get(key) ?? 0) + n);
      return values.get(key)! - n + 1;
    },
    async ensureAtLeast(key, value) {
      calls.push(`ensureAtLeast ${key} ${value}`);
      values.set(key, Math.max(values.get(key) ?? 0, value));
    },
  };
  return { counters, calls };
}

describe('ids in blocks', () => {
  it('When ids are taken one after another, then one round trip a block and consecutive ids', async () => {
    const { counters, calls } = memoryCounters();
    const ids = withIdBlocks(counters, { note: 3 });
    const taken: number[] = [];
    for (let i = 0; i < 7; i++) taken.push(await ids.next('note'));
    expect(taken).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(calls).toEqual(['nextMany note 3', 'nextMany note 3', 'nextMany note 3']);
  });

  it('When requests need ids at once, then they share a reservation and no id is given twice', async () => {
    const { counters, calls } = memoryCounters();
    const ids = withIdBlocks(counters, { note: 4 });
    const taken = await Promise.all(Array.from({ length: 10 }, () => ids.next('note')));
    expect(new Set(taken).size).toBe(10);
    expect(taken.every((id) => id >= 1 && id <= 12)).toBe(true);
    expect(calls.length).toBeLessThanOrEqual(3);
  });

  it('When a key has no block size, or a batch is larger than a block, then the sequence answers it', async () => {
    const { counters, calls } = memoryCounters();
    const ids = withIdBlocks(counters, { note: 2 });
    expect(await ids.next('issues:7')).toBe(1);
    expect(await ids.next('issues:7')).toBe(2);
    expect(await ids.nextMany('note', 5)).toBe(1);
    expect(await ids.nextMany('note', 2)).toBe(6);
    expect(calls).toEqual(['next issues:7', 'next issues:7', 'nextMany note 5', 'nextMany note 2']);
  });

  it('When a sequence is moved forward, then ids held below the new floor are not given', async () => {
    const { counters } = memoryCounters();
    const ids = withIdBlocks(counters, { note: 10 });
    expect(await ids.next('note')).toBe(1);
    await ids.ensureAtLeast('note', 100);
    expect(await ids.next('note')).toBe(101);
  });

  it('When a reservation fails, then the caller sees the error and the next one tries again', async () => {
    const { counters } = memoryCounters();
    let fail = true;
    const flaky: Counters = {
      ...counters,
      nextMany: (key, n) => (fail ? Promise.reject(new Error('down')) : counters.nextMany(key, n)),
    };
    const ids = withIdBlocks(flaky, { note: 2 });
    await expect(ids.next('note')).rejects.toThrow('down');
    fail = false;
    expect(await ids.next('note')).toBe(1);
  });
});
