import { createFlushedCache } from '@gl/service-kit';
import { createNotifyLookup } from './notify-lookup';
import type { Integration } from './integrations.store';

describe('notify lookup', () => {
  const integration = { _id: 1, projectId: 7, active: true } as Integration;

  function lookupWithCounts() {
    const findActive = jest.fn(async () => integration);
    const isActive = jest.fn(async () => false);
    const cache = createFlushedCache(60_000);
    return { lookup: createNotifyLookup({ findActive }, { isActive }, cache), findActive, isActive, cache };
  }

  it('When the same endpoint is posted to again, then its integration and Opsgenie state are read once', async () => {
    const { lookup, findActive, isActive } = lookupWithCounts();
    const first = await lookup(7, 'http', 'abc');
    const second = await lookup(7, 'http', 'abc');
    expect(second).toEqual({ integration, opsgenieActive: false });
    expect(second).toBe(first);
    expect(findActive).toHaveBeenCalledTimes(1);
    expect(isActive).toHaveBeenCalledTimes(1);
  });

  it('When endpoints differ, then each is read on its own', async () => {
    const { lookup, findActive } = lookupWithCounts();
    await lookup(7, 'http', 'abc');
    await lookup(7, 'http', 'def');
    await lookup(7, 'prometheus', 'prometheus');
    await lookup(8, 'http', 'abc');
    expect(findActive.mock.calls).toEqual([
      [7, 'http', 'abc'],
      [7, 'http', 'def'],
      [7, 'prometheus', 'prometheus'],
      [8, 'http', 'abc'],
    ]);
  });

  it('When the cache is flushed by a write, then the next post reads again', async () => {
    const { lookup, findActive, cache } = lookupWithCounts();
    await lookup(7, 'http', 'abc');
    cache.invalidate();
    await lookup(7, 'http', 'abc');
    expect(findActive).toHaveBeenCalledTimes(2);
  });
});
