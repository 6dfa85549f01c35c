import { parseChronicDuration } from './duration';

describe('parseChronicDuration (GitLab older_than)', () => {
  it.each([
    ['1h', 3600],
    ['1d', 86_400],
    ['2d', 172_800],
    ['1 day', 86_400],
    ['1month', 2_592_000],
    ['1mo', 2_592_000],
    ['3months', 7_776_000],
    ['1m', 60],
    ['10min', 600],
    ['1w', 604_800],
    ['2 weeks', 1_209_600],
    ['1y', 31_557_600],
    ['90s', 90],
    ['1d 2h', 93_600],
    ['1 day and 2 hours', 93_600],
    ['1.5h', 5400],
    ['45', 45],
    ['day', 86_400],
    ['3:41:59', 13_319],
    ['41:59', 2519],
    ['1D', 86_400],
    ['  7d ', 604_800],
    ['5 bananas 2h', 7205],
    // Not a negative span: ChronicDuration ignores the unknown word "-" (what GitLab's cleanup does).
    ['-1d', 86_400],
  ])('When parsing %p, then it is %d seconds', (input, seconds) => {
    expect(parseChronicDuration(input)).toBe(seconds);
  });

  it.each(['', '   ', 'garbage', '0d', '0', 'foo bar'])(
    'When parsing %p, then nothing usable is found (null)',
    (input) => {
      expect(parseChronicDuration(input)).toBeNull();
    },
  );

  it('When the input is null or undefined, then it is null', () => {
    expect(parseChronicDuration(null)).toBeNull();
    expect(parseChronicDuration(undefined)).toBeNull();
  });
});
