import { createFlushedCache } from './flushed-cache';

describe('flushed cache', () => {
  it('When a key is read twice within the TTL, then it is loaded once', async () => {
    const cache = createFlushedCache(1_000);
    const load = jest.fn(async () => 42);
    expect(await cache.get('k', load)).toBe(42);
    expect(await cache.get('k', load)).toBe(42);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('When concurrent requests ask for one key, then they share one lookup', async () => {
    const cache = createFlushedCache(1_000);
    const load = jest.fn(() => new Promise<number>((r) => setTimeout(() => r(7), 10)));
    expect(await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)])).toEqual([
      7, 7, 7,
    ]);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('When invalidated, then the next read loads again', async () => {
    const cache = createFlushedCache(1_000);
    let value = 1;
    const load = async (): Promise<number> => value;
    expect(await cache.get('k', load)).toBe(1);
    value = 2;
    cache.invalidate();
    expect(await cache.get('k', load)).toBe(2);
  });

  it('When a lookup fails, then the failure is not cached', async () => {
    const cache = createFlushedCache(1_000);
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 'ok')).toBe('ok');
  });

  it('When the TTL is 0, then nothing is cached', async () => {
    const cache = createFlushedCache(0);
    const load = jest.fn(async () => 1);
    await cache.get('k', load);
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('When the cache is full, then the least recently used entry goes and the others stay', async () => {
    const cache = createFlushedCache(1_000, 2);
    const loads: string[] = [];
    const load = (key: string) => async () => {
      loads.push(key);
      return key;
    };
    await cache.get('a', load('a'));
    await cache.get('b', load('b'));
    await cache.get('a', load('a')); // a is now the most recently used
    await cache.get('c', load('c')); // full: b goes
    await cache.get('a', load('a'));
    await cache.get('c', load('c'));
    await cache.get('b', load('b'));
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('When the TTL passes, then the value is loaded again', async () => {
    const cache = createFlushedCache(20);
    const load = jest.fn(async () => 1);
    await cache.get('k', load);
    await new Promise((r) => setTimeout(r, 30));
    await cache.get('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
