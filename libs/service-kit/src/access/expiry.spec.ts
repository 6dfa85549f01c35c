import { hasExpired, todayUtc } from './expiry';

describe('expiry dates (memberships, personal access tokens)', () => {
  beforeAll(() => {
    jest.useFakeTimers({ now: new Date('2026-03-10T23:30:00.000-05:00') }); // 2026-03-11 in UTC
  });
  afterAll(() => {
    jest.useRealTimers();
  });

  it('When asked for today, then the UTC calendar day', () => {
    expect(todayUtc()).toBe('2026-03-11');
  });

  it('When the clock passes midnight UTC, then the next day, and back again when it is set back', () => {
    jest.setSystemTime(new Date('2026-03-11T23:59:59.999Z'));
    expect(todayUtc()).toBe('2026-03-11');
    jest.setSystemTime(new Date('2026-03-12T00:00:00.000Z'));
    expect(todayUtc()).toBe('2026-03-12');
    jest.setSystemTime(new Date('2026-03-10T12:00:00.000Z'));
    expect(todayUtc()).toBe('2026-03-10');
    jest.setSystemTime(new Date('2026-03-10T23:30:00.000-05:00'));
    expect(todayUtc()).toBe('2026-03-11');
  });

  it.each([
    ['2026-03-10', true],
    ['2026-03-11', true], // expires on a day → expired from that day on, as GitLab's `expires_at <= Date.current`
    ['2026-03-12', false],
    [null, false],
    [undefined, false],
  ])('When the expiry date is %s, then expired is %s', (expiresAt, expired) => {
    expect(hasExpired(expiresAt)).toBe(expired);
  });
});
