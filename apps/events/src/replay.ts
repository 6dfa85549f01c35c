import { DeliverPolicy, type JsMsg } from '@nats-io/jetstream';
import { EVENT_STREAM } from '@gl/contracts';
import { PoisonMessageError, decodeEnvelope, type Bus } from '@gl/service-kit';
import type { Logger } from 'pino';
import type { ActivityRecorder } from './activity.consumer';

export type ReplayFrom = { sequence: number } | { time: Date };

export interface ReplayResult {
  /** Messages read from the stream. */
  read: number;
  /** Invalid or unprocessable messages skipped (as the live consumer terminates them). */
  skipped: number;
  lastSequence: number;
}

/**
 * Re-reads the stream from a sequence or a time into the activity log with an ordered (ephemeral)
 * consumer, up to the last message stored when the replay began. Safe to run any number of times, and
 * beside the running service: the log and the projections are idempotent by event id, and its ids come
 * from the same leases as the service's (activity-sequence.ts), so live streams miss nothing it records.
 */
export async function replayStream(
  bus: Bus,
  recorder: ActivityRecorder,
  from: ReplayFrom,
  logger: Logger,
): Promise<ReplayResult> {
  const info = await bus.jsm.streams.info(EVENT_STREAM);
  const lastSequence = info.state.last_seq;
  const result: ReplayResult = { read: 0, skipped: 0, lastSequence };
  const firstWanted = 'sequence' in from ? from.sequence : 0;
  if (info.state.messages === 0 || firstWanted > lastSequence) return result;
  const consumer = await bus.js.consumers.get(
    EVENT_STREAM,
    'sequence' in from
      ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: Math.max(1, from.sequence) }
      : { deliver_policy: DeliverPolicy.StartTime, opt_start_time: from.time.toISOString() },
  );
  const apply = async (msg: JsMsg): Promise<void> => {
    const parsed = decodeEnvelope(msg);
    if (!parsed.success) {
      result.skipped += 1;
      logger.warn({ seq: msg.seq, subject: msg.subject }, 'replay skipped an invalid message');
      return;
    }
    try {
      await recorder.apply(parsed.data);
    } catch (err) {
      if (!(err instanceof PoisonMessageError)) throw err;
      result.skipped += 1;
      logger.warn({ seq: msg.seq, eventId: parsed.data.id }, 'replay skipped an unprocessable event');
    }
  };
  for (;;) {
    const batch = await consumer.fetch({ max_messages: 256, expires: 2_000 });
    let got = 0;
    for await (const msg of batch) {
      got += 1;
      result.read += 1;
      await apply(msg);
      if (msg.seq >= lastSequence) return result;
    }
    // Nothing more came: the messages up to lastSequence are gone (limits) or past the start time.
    if (got === 0) return result;
  }
}
