import { createHash } from 'node:crypto';
import { fingerprintOf, jsonDepth, mapGenericPayload, mapPrometheusAlert } from './alert-payload';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('alert payload mapping', () => {
  it('When a fingerprint is a string, number, array or hash, then it is hashed as GitLab does', () => {
    expect(fingerprintOf('abc')).toBe(sha1('abc'));
    expect(fingerprintOf(42)).toBe(sha1('42'));
    expect(fingerprintOf(['a', ['b', 1]])).toBe(sha1('ab1'));
    expect(fingerprintOf({ b: 'x', a: { c: [1, 'y'] } })).toBe(sha1('[["a.c", [1, "y"]], ["b", "x"]]'));
    expect(fingerprintOf('')).toBeNull();
    expect(fingerprintOf([])).toBeNull();
  });

  it('When the payload has no fingerprint, then only higher tiers fingerprint the content without times and hosts', () => {
    const payload = { title: 'a', start_time: '2026-01-01T00:00:00Z', hosts: 'h' };
    expect(mapGenericPayload(payload, false).fingerprint).toBeNull();
    expect(mapGenericPayload(payload, true).fingerprint).toBe(sha1('[["title", "a"]]'));
    expect(mapGenericPayload({ start_time: 'x', hosts: ['h'] }, true).fingerprint).toBeNull();
  });

  it('When end_time is set or the time is epoch milliseconds, then the alert resolves at that time', () => {
    const mapped = mapGenericPayload({ start_time: 1767225600000, end_time: '2026-01-02T00:00:00Z' }, true);
    expect(mapped.startedAt.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(mapped.endedAt?.toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });

  it('When an Alertmanager alert has no fingerprint, then one is derived from start, title and generator URL', () => {
    const alert = { labels: { alertname: 'A' }, startsAt: '2026-01-01T00:00:00Z', generatorURL: 'g' };
    expect(mapPrometheusAlert(alert).fingerprint).toBe(sha1('2026-01-01T00:00:00.000ZAg'));
    expect(mapPrometheusAlert(alert).title).toBe('A');
  });

  it('When JSON text nests, then its depth is measured ignoring brackets inside strings', () => {
    expect(jsonDepth('{"a":[{"b":"[[[["}]}')).toBe(3);
    expect(jsonDepth('"x"')).toBe(0);
    expect(jsonDepth('{"a":"\\"[","b":{}}')).toBe(2);
  });
});
