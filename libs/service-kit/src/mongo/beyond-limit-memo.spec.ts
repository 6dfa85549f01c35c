import { createBeyondLimitMemo } from './beyond-limit-memo';

describe('createBeyondLimitMemo', () => {
  function clockAt(start = 1_000) {
    const clock = { at: start, now: () => clock.at };
    return clock;
  }

  it('When a list was found past the limit, then it is not probed again until the time is up', async () => {
    const clock = clockAt();
    const memo = createBeyondLimitMemo({ ttlMs: 60_000, now: clock.now });
    const probe = jest.fn().mockResolvedValue(true);
    expect(await memo.beyond('a', probe)).toBe(true);
    clock.at += 59_999;
    expect(await memo.beyond('a', probe)).toBe(true);
    expect(probe).toHaveBeenCalledTimes(1);
    clock.at += 1;
    probe.mockResolvedValue(false);
    expect(await memo.beyond('a', probe)).toBe(false);
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('When a list is within the limit, then every call asks again (its exact total is shown)', async () => {
    const memo = createBeyondLimitMemo();
    const probe = jest.fn().mockResolvedValue(false);
    await memo.beyond('a', probe);
    await memo.beyond('a', probe);
    expect(probe).toHaveBeenCalledTimes(2);
  });

  it('When two callers ask about the same list at once, then one probe answers both', async () => {
    const memo = createBeyondLimitMemo();
    let answer!: (value: boolean) => void;
    const probe = jest.fn(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const both = Promise.all([memo.beyond('a', probe), memo.beyond('a', probe)]);
    answer(true);
    expect(await both).toEqual([true, true]);
    expect(probe).toHaveBeenCalledTimes(1);
  });

  it('When a probe fails, then the failure reaches the caller and the next call probes again', async () => {
    const memo = createBeyondLimitMemo();
    await expect(memo.beyond('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await memo.beyond('a', () => Promise.resolve(true))).toBe(true);
  });

  it('When more lists than it keeps were found past the limit, then the oldest is asked again', async () => {
    const memo = createBeyondLimitMemo({ maxLists: 2 });
    const probe = jest.fn().mockResolvedValue(true);
    for (const key of ['a', 'b', 'c']) await memo.beyond(key, probe);
    await memo.beyond('c', probe);
    await memo.beyond('b', probe);
    expect(probe).toHaveBeenCalledTimes(3);
    await memo.beyond('a', probe);
    expect(probe).toHaveBeenCalledTimes(4);
  });
});
