import { DiscardPolicy, type StreamConfig } from '@nats-io/jetstream';
import { nanos } from '@nats-io/nats-core';

/**
 * How much of the event stream JetStream keeps: whichever limit is reached first discards the oldest
 * messages. Consumers must read a message before it leaves (see README, Operations).
 */
export interface StreamLimits {
  maxAgeMs: number;
  maxBytes: number;
}

/** JetStream drops a re-sent msgID inside this window; the outbox replays within it after broker restarts. */
export const DUPLICATE_WINDOW_MS = 15 * 60_000;

const SECOND = 1000;
const DAY = 86_400 * SECOND;
const GiB = 1024 ** 3;

/**
 * Seven days: a consumer stopped on a Friday evening (a crashed service, a handler failing on every
 * message) is still inside the window the next Monday, with days to spare to notice the alert (a consumer
 * is flagged at 80%, after 5.6 days), fix it and let it catch up. 10 GiB fits the broker's disk on a
 * developer's machine (JetStream reserves a stream's max_bytes on its server up front: the server refuses a
 * stream larger than 75% of its free disk). A deployment sizes it as ingestion per day × 7 days.
 */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { maxAgeMs: 7 * DAY, maxBytes: 10 * GiB };

const DURATION_UNITS: Record<string, number> = { ms: 1, s: SECOND, m: 60 * SECOND, h: 3600 * SECOND, d: DAY };
const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  tb: 1000 ** 4,
  kib: 1024,
  mib: 1024 ** 2,
  gib: GiB,
  tib: 1024 ** 4,
};

/** `7d`, `36h`, `90m`, `2s`, `500ms`; a bare number is seconds. Undefined when it is none of these. */
export function parseDurationMs(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(text);
  if (!match) return undefined;
  const ms = Number(match[1]) * DURATION_UNITS[(match[2] ?? 's').toLowerCase()]!;
  return Number.isFinite(ms) ? Math.round(ms) : undefined;
}

/** `10GiB`, `500MB`, `1048576`; a bare number is bytes. Undefined when it is none of these. */
export function parseBytes(text: string): number | undefined {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]i?b|b)?\s*$/i.exec(text);
  if (!match) return undefined;
  const bytes = Number(match[1]) * BYTE_UNITS[(match[2] ?? '').toLowerCase()]!;
  return Number.isSafeInteger(Math.round(bytes)) ? Math.round(bytes) : undefined;
}

/** The stream settings that carry the limits (the rest of the stream's configuration is the bus's). */
export function limitsConfig(
  limits: StreamLimits,
): Pick<StreamConfig, 'max_age' | 'max_bytes' | 'max_msgs' | 'discard' | 'duplicate_window'> {
  return {
    max_age: nanos(limits.maxAgeMs),
    max_bytes: limits.maxBytes,
    max_msgs: -1,
    discard: DiscardPolicy.Old,
    // JetStream refuses a duplicate window longer than the maximum age (only tests use ages that short).
    duplicate_window: nanos(Math.min(DUPLICATE_WINDOW_MS, limits.maxAgeMs)),
  };
}

/** Which of the limit settings an existing stream has otherwise, for the log line of an update. */
export function changedLimits(existing: Partial<StreamConfig>, limits: StreamLimits): string[] {
  const wanted = limitsConfig(limits);
  return (Object.keys(wanted) as (keyof typeof wanted)[]).filter((key) => existing[key] !== wanted[key]);
}
