import { interpolatedUrl, retryDelayMs } from './sender';

describe('Hook sender rules', () => {
  it('When attempts fail, then each retry waits twice as long as the one before, up to the cap', () => {
    const delays = [1, 2, 3, 4, 10, 20].map((n) => retryDelayMs(n, 10_000, 3_600_000));
    expect(delays).toEqual([10_000, 20_000, 40_000, 80_000, 3_600_000, 3_600_000]);
  });

  it('When a URL names variables, then they are replaced by their values and unknown ones are kept', () => {
    const url = interpolatedUrl({
      url: 'https://hooks.example.com/{a}/x?token={b}&c={c}',
      urlVariables: [
        { key: 'a', value: 'path' },
        { key: 'b', value: 'secret' },
      ],
    });
    expect(url).toBe('https://hooks.example.com/path/x?token=secret&c={c}');
  });
});
