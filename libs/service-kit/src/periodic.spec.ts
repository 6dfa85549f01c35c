import { runPeriodically } from './periodic';

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
