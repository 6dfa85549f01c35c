import { EVENT_STREAM } from '@gl/contracts';
import type { JetStreamManager, MsgRequest } from '@nats-io/jetstream';
import { millis } from '@nats-io/nats-core';

/** What the event stream holds now and what it may hold (0 for a limit that is not set). */
export interface StreamState {
  messages: number;
  bytes: number;
  firstSeq: number;
  lastSeq: number;
  maxAgeMs: number;
  maxBytes: number;
}

export async function readStreamState(jsm: JetStreamManager): Promise<StreamState> {
  const { state, config } = await jsm.streams.info(EVENT_STREAM);
  return {
    messages: state.messages,
    bytes: state.bytes,
    firstSeq: state.first_seq,
    lastSeq: state.last_seq,
    maxAgeMs: config.max_age > 0 ? millis(config.max_age) : 0,
    maxBytes: config.max_bytes > 0 ? config.max_bytes : 0,
  };
}

/**
 * A consumer is behind the window once its oldest unacknowledged message is in the part of the stream
 * that goes next: older than this share of the maximum age, or, with the stream this full of its maximum
 * size, within the oldest (1 − share) of its messages. At 0.8 and the default seven days that leaves
 * 1.4 days between the alert and the first lost message.
 */
export const BEHIND_WINDOW_SHARE = 0.8;

export interface ConsumerWindow {
  /** Age of the oldest message the consumer has not acknowledged; 0 when it is caught up. */
  oldestUnackedAgeSeconds: number;
  /** Its stream sequence, when there is one. */
  oldestUnackedSeq?: number;
  behind: boolean;
}

const CAUGHT_UP: ConsumerWindow = { oldestUnackedAgeSeconds: 0, behind: false };

/**
 * The first message at or after `fromSeq` on one of `subjects`, or undefined. The server's message-get
 * takes `next_by_subj` with `seq` (the client's type lists it only for direct gets).
 */
async function firstMessageFrom(
  jsm: JetStreamManager,
  fromSeq: number,
  subjects: string[],
): Promise<{ seq: number; time: Date } | undefined> {
  const found = await Promise.all(
    subjects.map((subject) =>
      jsm.streams
        .getMessage(EVENT_STREAM, { seq: fromSeq, next_by_subj: subject } as unknown as MsgRequest)
        .then((msg) => (msg ? { seq: msg.seq, time: msg.time } : undefined))
        // No message on that subject from there on.
        .catch(() => undefined),
    ),
  );
  return found.reduce<{ seq: number; time: Date } | undefined>(
    (oldest, msg) => (msg && (!oldest || msg.seq < oldest.seq) ? msg : oldest),
    undefined,
  );
}

/**
 * Where a durable consumer stands in the stream's window. Its oldest unacknowledged message is the first
 * message on its subjects past its ack floor (everything before it is acknowledged or gone).
 */
export async function readConsumerWindow(
  jsm: JetStreamManager,
  durable: string,
  subjects: string[],
  stream: StreamState,
  now: number = Date.now(),
): Promise<ConsumerWindow> {
  const info = await jsm.consumers.info(EVENT_STREAM, durable);
  if (info.num_pending + info.num_ack_pending === 0) return CAUGHT_UP;
  const from = Math.max(info.ack_floor.stream_seq + 1, stream.firstSeq);
  const oldest = await firstMessageFrom(jsm, from, subjects);
  if (!oldest) return CAUGHT_UP;
  const ageMs = Math.max(0, now - oldest.time.getTime());
  return {
    oldestUnackedAgeSeconds: ageMs / 1000,
    oldestUnackedSeq: oldest.seq,
    behind: isBehind(ageMs, oldest.seq, stream),
  };
}

/** The rule of BEHIND_WINDOW_SHARE, for a message of this age and sequence. */
export function isBehind(ageMs: number, seq: number, stream: StreamState): boolean {
  if (stream.maxAgeMs > 0 && ageMs >= BEHIND_WINDOW_SHARE * stream.maxAgeMs) return true;
  if (stream.maxBytes > 0 && stream.bytes >= BEHIND_WINDOW_SHARE * stream.maxBytes) {
    const span = stream.lastSeq - stream.firstSeq + 1;
    return seq - stream.firstSeq < (1 - BEHIND_WINDOW_SHARE) * span;
  }
  return false;
}
