import { coalescedPuts } from './coalesced-puts';

/** A put that ends when the test says so, recording when each started. */
function controlledPut() {
  const started: string[] = [];
  const finish: (() => void)[] = [];
  const fail: ((err: Error) => void)[] = [];
  const put = (key: string) =>
    new Promise<void>((resolve, reject) => {
      started.push(key);
      finish.push(resolve);
      fail.push(reject);
    });
  return { put, started, finish, fail };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('coalesced puts', () => {
  it('When a key is put alone, then one put', async () => {
    const c = controlledPut();
    const bump = coalescedPuts(c.put);
    const done = bump('a');
    c.finish[0]!();
    await done;
    expect(c.started).toEqual(['a']);
  });

  it('When puts of a key come while one is under way, then they share one put started after it', async () => {
    const c = controlledPut();
    const bump = coalescedPuts(c.put);
    const first = bump('a');
    let laterDone = 0;
    const later = [bump('a'), bump('a'), bump('a')].map((p) => p.then(() => laterDone++));
    await tick();
    expect(c.started).toEqual(['a']);
    c.finish[0]!();
    await first;
    await tick();
    // The shared put has started only now, after the first ended; the later callers still wait for it.
    expect(c.started).toEqual(['a', 'a']);
    expect(laterDone).toBe(0);
    c.finish[1]!();
    await Promise.all(later);
    expect(laterDone).toBe(3);
  });

  it('When a put comes while the shared one is under way, then it waits for a third', async () => {
    const c = controlledPut();
    const bump = coalescedPuts(c.put);
    void bump('a');
    const second = bump('a');
    c.finish[0]!();
    await tick();
    const third = bump('a');
    c.finish[1]!();
    await second;
    await tick();
    expect(c.started).toHaveLength(3);
    c.finish[2]!();
    await third;
  });

  it('When keys differ, then their puts go at once', async () => {
    const c = controlledPut();
    const bump = coalescedPuts(c.put);
    void bump('a');
    void bump('b');
    expect(c.started).toEqual(['a', 'b']);
  });

  it('When a put fails, then its callers see the failure and the waiting put still goes', async () => {
    const c = controlledPut();
    const bump = coalescedPuts(c.put);
    const first = bump('a');
    const second = bump('a');
    c.fail[0]!(new Error('bucket away'));
    await expect(first).rejects.toThrow('bucket away');
    await tick();
    expect(c.started).toHaveLength(2);
    c.finish[1]!();
    await second;
  });
});
