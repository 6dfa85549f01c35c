import { createBeyondLimitMemo } from './beyond-limit-memo';

describe('createBeyondLimitMemo', () => {
  function clockAt(start = 1_000) {
    const clock = { at: start, now: () => clock.at };
    return clock;
  }

  it('When a list was found past the limit, then it is not counted again until the time is up', async () => {
    const clock = clockAt();
    const memo = createBeyondLimitMemo({ ttlMs: 60_000, now: clock.now });
    const count = jest.fn().mockResolvedValue(11);
    expect(await memo.upTo('a', 10, count)).toBeNull();
    clock.at += 59_999;
    expect(await memo.upTo('a', 10, count)).toBeNull();
    expect(count).toHaveBeenCalledTimes(1);
    clock.at += 1;
    count.mockResolvedValue(10);
    expect(await memo.upTo('a', 10, count)).toBe(10);
    expect(count).toHaveBeenCalledTimes(2);
  });

  it('When a list is within the limit, then every call counts again (its exact total is shown)', async () => {
    const memo = createBeyondLimitMemo();
    const count = jest.fn().mockResolvedValueOnce(3).mockResolvedValueOnce(4);
    expect(await memo.upTo('a', 10, count)).toBe(3);
    expect(await memo.upTo('a', 10, count)).toBe(4);
  });

  it('When a count fails, then the failure reaches the caller and nothing is remembered', async () => {
    const memo = createBeyondLimitMemo();
    await expect(memo.upTo('a', 10, () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo.upTo('a', 10, () => Promise.resolve(2))).toBe(2);
  });

  it('When more lists than it keeps were found past the limit, then the oldest is counted again', async () => {
    const memo = createBeyondLimitMemo({ maxLists: 2 });
    const count = jest.fn().mockResolvedValue(11);
    for (const key of ['a', 'b', 'c']) await memo.upTo(key, 10, count);
    await memo.upTo('c', 10, count);
    await memo.upTo('b', 10, count);
    expect(count).toHaveBeenCalledTimes(3);
    await memo.upTo('a', 10, count);
    expect(count).toHaveBeenCalledTimes(4);
  });
});
