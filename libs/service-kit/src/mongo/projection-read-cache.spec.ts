import { createProjectionReadCache } from './projection-read-cache';
import { ProjectionVersion } from './projection-revisions';

describe('createProjectionReadCache', () => {
  const counting = () => {
    let reads = 0;
    return { load: () => Promise.resolve(++reads), reads: () => reads };
  };

  it('When an entry is asked again with nothing changed, then it is served without a read', async () => {
    const cache = createProjectionReadCache<number, number>(new ProjectionVersion(), 5_000, 10);
    const source = counting();
    expect(await cache.get(1, 0, 3, source.load)).toBe(1);
    expect(await cache.get(1, 3, 3, source.load)).toBe(1);
    expect(source.reads()).toBe(1);
  });

  it("When this process's consumer wrote since the read, then the entry is read again", async () => {
    const version = new ProjectionVersion();
    const cache = createProjectionReadCache<number, number>(version, 5_000, 10);
    const source = counting();
    await cache.get(1, 0, 0, source.load);
    version.bump();
    expect(await cache.get(1, 0, 0, source.load)).toBe(2);
  });

  it('When a request needs a newer identity revision than the entry was read at, then it is read again', async () => {
    const cache = createProjectionReadCache<number, number>(new ProjectionVersion(), 5_000, 10);
    const source = counting();
    await cache.get(1, 0, 4, source.load);
    expect(await cache.get(1, 4, 4, source.load)).toBe(1);
    expect(await cache.get(1, 5, 5, source.load)).toBe(2);
    expect(await cache.get(1, 5, 5, source.load)).toBe(2);
  });

  it('When the TTL is 0, then nothing is kept; past the TTL, the entry is read again', async () => {
    const none = createProjectionReadCache<number, number>(new ProjectionVersion(), 0, 10);
    const source = counting();
    await none.get(1, 0, 0, source.load);
    await none.get(1, 0, 0, source.load);
    expect(source.reads()).toBe(2);

    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const aging = createProjectionReadCache<number, number>(new ProjectionVersion(), 5_000, 10);
      const again = counting();
      await aging.get(1, 0, 0, again.load);
      jest.setSystemTime(1_004_999);
      expect(await aging.get(1, 0, 0, again.load)).toBe(1);
      jest.setSystemTime(1_005_000);
      expect(await aging.get(1, 0, 0, again.load)).toBe(2);
    } finally {
      jest.useRealTimers();
    }
  });

  it('When more keys are loaded than kept, then the least recently loaded goes first', async () => {
    const cache = createProjectionReadCache<number, number>(new ProjectionVersion(), 5_000, 2);
    const source = counting();
    await cache.get(1, 0, 0, source.load);
    await cache.get(2, 0, 0, source.load);
    await cache.get(3, 0, 0, source.load);
    expect(await cache.get(2, 0, 0, source.load)).toBe(2);
    expect(await cache.get(1, 0, 0, source.load)).toBe(4);
  });

  it('When a read fails, then it is not kept: the next ask reads again', async () => {
    const cache = createProjectionReadCache<number, number>(new ProjectionVersion(), 5_000, 10);
    await expect(cache.get(1, 0, 0, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get(1, 0, 0, () => Promise.resolve(7))).toBe(7);
  });
});
