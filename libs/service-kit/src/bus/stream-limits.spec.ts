import { millis } from '@nats-io/nats-core';
import { baseServiceConfig, loadConfig } from '../config';
import {
  DEFAULT_STREAM_LIMITS,
  changedLimits,
  limitsConfig,
  parseBytes,
  parseDurationMs,
} from './stream-limits';
import { isBehind, type StreamState } from './stream-window';

const env = {
  PORT: '0',
  MONGO_URL: 'mongodb://127.0.0.1:1',
  NATS_URL: 'nats://127.0.0.1:2',
  INTERNAL_CONTEXT_SECRET: 'x'.repeat(32),
};

describe('event stream limits', () => {
  it('parses durations and sizes as operators write them', () => {
    expect(parseDurationMs('7d')).toBe(7 * 86_400_000);
    expect(parseDurationMs('36h')).toBe(36 * 3_600_000);
    expect(parseDurationMs('90m')).toBe(5_400_000);
    expect(parseDurationMs('2s')).toBe(2_000);
    expect(parseDurationMs('120')).toBe(120_000);
    expect(parseDurationMs('1.5h')).toBe(5_400_000);
    expect(parseDurationMs('7 days')).toBeUndefined();
    expect(parseDurationMs('-1')).toBeUndefined();
    expect(parseBytes('10GiB')).toBe(10 * 1024 ** 3);
    expect(parseBytes('500MB')).toBe(500_000_000);
    expect(parseBytes('64mib')).toBe(64 * 1024 ** 2);
    expect(parseBytes('1048576')).toBe(1_048_576);
    expect(parseBytes('lots')).toBeUndefined();
  });

  it('When nothing is set, then services keep seven days and 10 GiB; bad or unbounded values are refused', () => {
    const config = loadConfig('t', baseServiceConfig, env);
    expect([config.NATS_STREAM_MAX_AGE, config.NATS_STREAM_MAX_BYTES]).toEqual([
      DEFAULT_STREAM_LIMITS.maxAgeMs,
      DEFAULT_STREAM_LIMITS.maxBytes,
    ]);
    const set = loadConfig('t', baseServiceConfig, {
      ...env,
      NATS_STREAM_MAX_AGE: '3d',
      NATS_STREAM_MAX_BYTES: '50GiB',
    });
    expect([set.NATS_STREAM_MAX_AGE, set.NATS_STREAM_MAX_BYTES]).toEqual([3 * 86_400_000, 50 * 1024 ** 3]);
    expect(() => loadConfig('t', baseServiceConfig, { ...env, NATS_STREAM_MAX_AGE: '0' })).toThrow(
      'NATS_STREAM_MAX_AGE',
    );
    expect(() => loadConfig('t', baseServiceConfig, { ...env, NATS_STREAM_MAX_AGE: 'forever' })).toThrow(
      'NATS_STREAM_MAX_AGE',
    );
    expect(() => loadConfig('t', baseServiceConfig, { ...env, NATS_STREAM_MAX_BYTES: '-1' })).toThrow(
      'NATS_STREAM_MAX_BYTES',
    );
  });

  it('gives the stream its age, size and discard policy, with a duplicate window no longer than the age', () => {
    const config = limitsConfig({ maxAgeMs: 7 * 86_400_000, maxBytes: 1024 });
    expect(millis(config.max_age)).toBe(7 * 86_400_000);
    expect(config).toMatchObject({ max_bytes: 1024, max_msgs: -1, discard: 'old' });
    expect(millis(config.duplicate_window)).toBe(15 * 60_000);
    expect(millis(limitsConfig({ maxAgeMs: 2_000, maxBytes: 1024 }).duplicate_window)).toBe(2_000);
  });

  it('names the limits an existing stream has otherwise (an unbounded stream of an older build: all of them)', () => {
    const limits = { maxAgeMs: 60_000, maxBytes: 1024 };
    expect(changedLimits(limitsConfig(limits), limits)).toEqual([]);
    expect(changedLimits({ max_age: 0, max_bytes: -1, max_msgs: -1, discard: 'old' }, limits)).toEqual([
      'max_age',
      'max_bytes',
      'duplicate_window',
    ]);
  });

  describe('a consumer is behind the window', () => {
    const stream: StreamState = {
      messages: 1000,
      bytes: 100,
      firstSeq: 1001,
      lastSeq: 2000,
      maxAgeMs: 100_000,
      maxBytes: 1000,
    };
    it('once its oldest unacknowledged message is older than 80% of the maximum age', () => {
      expect(isBehind(79_999, 1500, stream)).toBe(false);
      expect(isBehind(80_000, 1500, stream)).toBe(true);
    });
    it('or, with the stream 80% full, once that message is in the oldest fifth of the stream', () => {
      const full = { ...stream, bytes: 800 };
      expect(isBehind(1_000, 1200, full)).toBe(true);
      expect(isBehind(1_000, 1201, full)).toBe(false);
      expect(isBehind(1_000, 1199, stream)).toBe(false);
    });
    it('never, by a limit that is not set', () => {
      expect(isBehind(10 ** 12, 1001, { ...stream, maxAgeMs: 0, maxBytes: 0, bytes: 10 ** 9 })).toBe(false);
    });
  });
});
