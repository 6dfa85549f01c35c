import { groupedCalls } from './grouped-calls';

/** A run whose end the test decides. */
function controlledRun() {
  const runs: { items: number[]; end: (err?: Error) => void }[] = [];
  const run = (items: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      runs.push({
        items,
        end: (err) => (err ? reject(err) : resolve(items.map((n) => `done ${n}`))),
      });
    });
  return { runs, run };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('groupedCalls', () => {
  it('When calls come in the same turn, then one run carries them all and each gets its own result', async () => {
    const { runs, run } = controlledRun();
    const call = groupedCalls(run);
    const results = Promise.all([call(1), call(2), call(3)]);
    await turn();
    expect(runs.map((r) => r.items)).toEqual([[1, 2, 3]]);
    runs[0]!.end();
    expect(await results).toEqual(['done 1', 'done 2', 'done 3']);
  });

  it('When calls come while a run is on its way, then they wait for it and share the next run', async () => {
    const { runs, run } = controlledRun();
    const call = groupedCalls(run);
    const first = call(1);
    await turn();
    let laterSettled = false;
    const later = Promise.all([call(2), call(3)]).finally(() => (laterSettled = true));
    await turn();
    expect(runs).toHaveLength(1);
    runs[0]!.end();
    expect(await first).toBe('done 1');
    await turn();
    expect(laterSettled).toBe(false);
    expect(runs.map((r) => r.items)).toEqual([[1], [2, 3]]);
    runs[1]!.end();
    expect(await later).toEqual(['done 2', 'done 3']);
  });

  it('When a run fails, then every call of its group is rejected and the next group still runs', async () => {
    const { runs, run } = controlledRun();
    const call = groupedCalls(run);
    const failing = Promise.allSettled([call(1), call(2)]);
    await turn();
    const next = call(3);
    runs[0]!.end(new Error('database down'));
    expect((await failing).map((r) => r.status)).toEqual(['rejected', 'rejected']);
    await turn();
    runs[1]!.end();
    expect(await next).toBe('done 3');
  });

  it('When more calls wait than a group takes, then they go in several runs, in order', async () => {
    const { runs, run } = controlledRun();
    const call = groupedCalls(run, 2);
    const all = Promise.all([1, 2, 3, 4, 5].map((n) => call(n)));
    await turn();
    runs[0]!.end();
    await turn();
    runs[1]!.end();
    await turn();
    runs[2]!.end();
    await all;
    expect(runs.map((r) => r.items)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('When run throws before returning a promise, then the calls are rejected, not left waiting', async () => {
    const call = groupedCalls<number, number>(() => {
      throw new Error('bad');
    });
    await expect(call(1)).rejects.toThrow('bad');
  });
});
