import { createTestRuntime, eventually, type TestRuntime } from '@gl/testing';
import { createFlushedCache, type FlushedCache } from './flushed-cache';
import { sharePeerFlushes } from './peer-flushes';

const SUBJECT = 'cache.test.records.flush';

/** Two replicas' caches on one real bus: what one writes, the other forgets. */
describe('a cache shared between replicas', () => {
  let runtime: TestRuntime;
  const closers: (() => void)[] = [];
  beforeAll(async () => {
    runtime = await createTestRuntime('peer-flushes');
  });
  afterAll(async () => {
    for (const close of closers) close();
    await runtime.close();
  });

  function replica(ttlMs: number, sharedTtlMs: number): FlushedCache {
    const cache = createFlushedCache(ttlMs);
    closers.push(sharePeerFlushes(cache, runtime.bus, SUBJECT, runtime.logger, sharedTtlMs).close);
    return cache;
  }

  it('When one replica writes, then the next lookup on another replica loads again', async () => {
    const a = replica(60_000, 60_000);
    const b = replica(60_000, 60_000);
    let stored = 'before';
    const load = jest.fn(async () => stored);
    expect(await b.get('token:x', load)).toBe('before');
    expect(await b.get('token:x', load)).toBe('before');
    expect(load).toHaveBeenCalledTimes(1);
    stored = 'revoked';
    a.invalidate();
    await eventually(
      () => b.get('token:x', load),
      (value) => value === 'revoked',
      5_000,
      10,
    );
    // The writer forgets at once, without waiting for its own announcement.
    expect(await a.get('token:x', async () => stored)).toBe('revoked');
  });

  it('When the announcements flow, then entries outlive the short TTL', async () => {
    const b = replica(20, 60_000);
    const load = jest.fn(async () => 1);
    await b.get('user:1', load);
    await new Promise((r) => setTimeout(r, 60));
    await b.get('user:1', load);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('When the bus is away, then entries live only the short TTL', async () => {
    const cache = createFlushedCache(20);
    const away = { ...runtime.bus, isConnected: () => false, onReconnect: () => undefined };
    closers.push(sharePeerFlushes(cache, away, SUBJECT, runtime.logger, 60_000).close);
    const load = jest.fn(async () => 1);
    await cache.get('user:1', load);
    await new Promise((r) => setTimeout(r, 60));
    await cache.get('user:1', load);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
