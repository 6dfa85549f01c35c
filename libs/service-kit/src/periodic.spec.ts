import { createBackgroundJob, runPeriodically } from './periodic';

describe('runPeriodically', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('When started, then the first run waits the first delay (or the interval, if shorter), then every interval', () => {
    const tick = jest.fn();
    const stop = runPeriodically(tick, 10_000, 60_000);
    jest.advanceTimersByTime(9_999);
    expect(tick).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(tick).toHaveBeenCalledTimes(1);
    jest.advanceTimersByTime(20_000);
    expect(tick).toHaveBeenCalledTimes(3);
    stop();
    jest.advanceTimersByTime(100_000);
    expect(tick).toHaveBeenCalledTimes(3);
  });

  it('When stopped before the first run, then it never runs', () => {
    const tick = jest.fn();
    const stop = runPeriodically(tick, 3_600_000);
    jest.advanceTimersByTime(59_999);
    stop();
    jest.advanceTimersByTime(10_000_000);
    expect(tick).not.toHaveBeenCalled();
  });
});

describe('createBackgroundJob', () => {
  it('When passes are asked for at once, then they run one after another, and a failed one is logged, not thrown', async () => {
    const order: string[] = [];
    let running = 0;
    let n = 0;
    const errors: string[] = [];
    const job = createBackgroundJob(
      async () => {
        running++;
        expect(running).toBe(1);
        const mine = ++n;
        order.push(`start ${mine}`);
        await new Promise((resolve) => setImmediate(resolve));
        order.push(`end ${mine}`);
        running--;
        if (mine === 2) throw new Error('boom');
        return mine;
      },
      {
        intervalMs: 60_000,
        logger: { error: (_f, message) => errors.push(message) },
        failure: 'pass failed',
      },
    );
    const first = job.runOnce();
    job.wake();
    const third = job.runOnce();
    expect(await first).toBe(1);
    expect(await third).toBe(3);
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    expect(errors).toEqual(['pass failed']);
    await job.stop();
  });
});
