import type { JsMsg, ConsumerMessages } from '@nats-io/jetstream';
import { EVENT_STREAM, eventEnvelope, type EventEnvelope } from '@gl/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ServiceMetrics } from '../metrics';
import type { Bus } from './bus';
import { whileUnavailable } from './cluster-waits';
import { readConsumerWindow } from './stream-window';

/** Thrown by a handler for a message that can never be processed: the message is terminated, not retried. */
export class PoisonMessageError extends Error {}

/** An event's `data` as its schema says, or poison: a payload that does not parse never will. */
export function eventData<S extends z.ZodType>(schema: S, event: EventEnvelope): z.infer<S> {
  const result = schema.safeParse(event.data);
  if (!result.success) {
    // Name the offending fields, so the log line of a terminated event says what was wrong with it.
    const fields = result.error.issues.map(
      (issue) => `${issue.path.join('.') || '(data)'}: ${issue.message}`,
    );
    throw new PoisonMessageError(`invalid ${event.type} payload (${fields.slice(0, 3).join('; ')})`);
  }
  return result.data;
}

/** What the stream says of an event's message, beside the event itself (both consumers read it with metaOf). */
export interface EventMeta {
  /**
   * The message's sequence in the event stream: the order the events were recorded in, the same for every
   * consumer and every redelivery (the hooks service orders each hook's deliveries by it).
   */
  streamSequence: number;
  /** How many times JetStream has delivered this message, this time included (1 the first time). */
  deliveryCount: number;
}

const metaOf = (m: JsMsg): EventMeta => ({ streamSequence: m.seq, deliveryCount: m.info.deliveryCount });

/**
 * What a handler may answer for an event it took and that changed nothing a reader sees (an alert that
 * opens no incident): no resource version is bumped for it (bumpingAfterWrites), so conditional GETs of
 * the service still answer 304 and no version write crosses the bus.
 */
export const UNCHANGED = 'unchanged' as const;

/** `meta` is given by the consumers here; a test or a harness that hands an event over may leave it out. */
export type EventHandler = (event: EventEnvelope, meta?: EventMeta) => Promise<void | typeof UNCHANGED>;

/**
 * What a batch handler says about single events of a batch it wrote: by index in the batch, the events that
 * can never be processed (terminated alone; the others are acknowledged).
 */
export interface BatchOutcome {
  poisoned?: ReadonlyMap<number, PoisonMessageError>;
  /** The batch changed nothing a reader sees (as UNCHANGED for one event): no resource version is bumped. */
  unchanged?: boolean;
}

/**
 * Writes a batch of events at once; it throws (and nothing is acknowledged) when the write failed. `meta[i]`
 * is the stream's word on `events[i]`.
 */
export type BatchHandler = (
  events: EventEnvelope[],
  meta: readonly EventMeta[],
) => Promise<BatchOutcome | void>;

export interface Subscription {
  durable: string;
  filterSubjects: string[];
  handle: EventHandler;
  /** When set, the consumer hands it the events in batches (startBatchConsumer) instead of calling `handle`. */
  handleBatch?: BatchHandler;
  /** Most events per batch (default DEFAULT_BATCH_SIZE). */
  batchSize?: number;
  /** With handleBatch: how long a batch that is not full waits for more events (default 0: not at all). */
  lingerMs?: number;
  /** Called once an event's or a batch's messages were acknowledged (the durable's ack floor may move). */
  acknowledged?: () => void;
}

export interface BatchSubscription {
  durable: string;
  filterSubjects: string[];
  handleBatch: BatchHandler;
  batchSize?: number;
  lingerMs?: number;
  acknowledged?: () => void;
}

export const DEFAULT_BATCH_SIZE = 500;

export interface RunningConsumer {
  stop(): Promise<void>;
}

/** Back-off for redeliveries after a transient failure: 1 s, 2 s, 4 s … capped at 60 s. */
export function redeliveryDelayMs(deliveryCount: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.max(0, deliveryCount - 1));
}

type Count = (outcome: 'acked' | 'nacked' | 'terminated') => void;

const counter =
  (durable: string, metrics?: ServiceMetrics): Count =>
  (outcome) =>
    metrics?.eventsConsumed.inc({ durable, outcome });

/**
 * Installs how /metrics and readiness read the consumer's place in the stream's window, and logs when it
 * falls behind (its oldest unacknowledged message is about to be discarded) and when it is back.
 */
function watchWindow(
  bus: Bus,
  subscription: { durable: string; filterSubjects: string[] },
  log: Logger,
  metrics?: ServiceMetrics,
): () => void {
  if (!metrics) return () => undefined;
  const { durable, filterSubjects } = subscription;
  let behind = false;
  metrics.windowOf.set(durable, async (stream) => {
    const window = await readConsumerWindow(bus.jsm, durable, filterSubjects, stream);
    if (window.behind !== behind) {
      behind = window.behind;
      const detail = {
        oldestUnackedAgeSeconds: Math.round(window.oldestUnackedAgeSeconds),
        oldestUnackedSeq: window.oldestUnackedSeq,
        streamMaxAgeSeconds: stream.maxAgeMs / 1000,
        streamBytes: stream.bytes,
        streamMaxBytes: stream.maxBytes,
      };
      if (behind) {
        log.error(
          detail,
          "consumer is behind the event stream's window: its oldest unacknowledged events are about to be discarded",
        );
      } else {
        log.info(detail, "consumer is back inside the event stream's window");
      }
    }
    return window;
  });
  return () => metrics.windowOf.delete(durable);
}

/**
 * The durable consumer's handle. Reading it asks the consumer's leader, which a cluster may be electing
 * right now (the process restarted because a node went): that is waited out like ensureConsumer does.
 */
function getConsumer(bus: Bus, durable: string): ReturnType<Bus['js']['consumers']['get']> {
  return whileUnavailable(() => bus.js.consumers.get(EVENT_STREAM, durable), {
    waitMs: 30_000,
    what: `consumer ${durable}`,
  });
}

/** A stream message as an event envelope, or the reasons it is not one (not JSON, or not the schema). */
export function decodeEnvelope(msg: JsMsg): z.ZodSafeParseResult<EventEnvelope> {
  let decoded: unknown;
  try {
    decoded = msg.json();
  } catch {
    decoded = undefined;
  }
  return eventEnvelope.safeParse(decoded);
}

/** The message's event, or undefined after terminating a message that is not a valid envelope. */
function decodeOrTerminate(msg: JsMsg, log: Logger, count: Count): EventEnvelope | undefined {
  const parsed = decodeEnvelope(msg);
  if (parsed.success) return parsed.data;
  log.error({ subject: msg.subject, seq: msg.seq, issues: parsed.error.issues }, 'terminated invalid event');
  msg.term('invalid envelope');
  count('terminated');
  return undefined;
}

/**
 * Runs one durable pull consumer: explicit ack after the handler succeeds; nak with back-off on a transient
 * failure; term (and log) when the message is not a valid envelope or the handler declares it poison.
 * Handlers must be idempotent by event id: redelivery after a crash is normal.
 */
export async function startConsumer(
  bus: Bus,
  subscription: Subscription,
  logger: Logger,
  metrics?: ServiceMetrics,
): Promise<RunningConsumer> {
  const { handleBatch } = subscription;
  if (handleBatch) return startBatchConsumer(bus, { ...subscription, handleBatch }, logger, metrics);
  await bus.ensureConsumer(subscription.durable, subscription.filterSubjects);
  const consumer = await getConsumer(bus, subscription.durable);
  metrics?.pendingOf.set(subscription.durable, async () => {
    const info = await consumer.info(true);
    return info.num_pending + info.num_ack_pending;
  });
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 64 });
  const log = logger.child({ durable: subscription.durable });
  const count = counter(subscription.durable, metrics);
  const unwatch = watchWindow(bus, subscription, log, metrics);

  async function handle(msg: JsMsg): Promise<void> {
    const event = decodeOrTerminate(msg, log, count);
    if (!event) return;
    try {
      await subscription.handle(event, metaOf(msg));
      await msg.ackAck();
      count('acked');
      subscription.acknowledged?.();
    } catch (err) {
      if (err instanceof PoisonMessageError) {
        log.error({ err, eventId: event.id, type: event.type }, 'terminated unprocessable event');
        msg.term(err.message);
        count('terminated');
        return;
      }
      const delay = redeliveryDelayMs(msg.info.deliveryCount);
      log.warn({ err, eventId: event.id, delay }, 'handler failed; will redeliver');
      msg.nak(delay);
      count('nacked');
    }
  }

  const loop = (async () => {
    for await (const msg of messages) await handle(msg);
  })();
  loop.catch((err: unknown) => log.error({ err }, 'consumer loop ended'));

  return {
    async stop() {
      unwatch();
      await messages.close();
      await loop.catch(() => undefined);
    },
  };
}

interface Received {
  msg: JsMsg;
  event: EventEnvelope;
}

/**
 * Runs one durable pull consumer that hands its handler the events in batches: every message already
 * received, up to `batchSize`, so a lone message is written at once and a backlog goes hundreds at a time.
 * Each message is acknowledged after the batch's write succeeded. A message that is not a valid envelope,
 * or that the handler reports as poison, is terminated alone and the others go on. When the write fails,
 * the whole batch is nak'ed with the back-off of `redeliveryDelayMs`; when the handler throws
 * PoisonMessageError for the batch as a whole, its events are written one at a time so that only the bad
 * one is terminated. Handlers must be idempotent by event id, as for startConsumer.
 *
 * With `lingerMs`, a batch that is not full waits up to that long for more events before it is written:
 * a trickle of events (a few writes a second) then shares a batch's round trips instead of paying them
 * for each event, at the cost of that much delay.
 */
export async function startBatchConsumer(
  bus: Bus,
  subscription: BatchSubscription,
  logger: Logger,
  metrics?: ServiceMetrics,
): Promise<RunningConsumer> {
  const batchSize = subscription.batchSize ?? DEFAULT_BATCH_SIZE;
  const lingerMs = subscription.lingerMs ?? 0;
  await bus.ensureConsumer(subscription.durable, subscription.filterSubjects);
  const consumer = await getConsumer(bus, subscription.durable);
  metrics?.pendingOf.set(subscription.durable, async () => {
    const info = await consumer.info(true);
    return info.num_pending + info.num_ack_pending;
  });
  const messages: ConsumerMessages = await consumer.consume({ max_messages: batchSize });
  const log = logger.child({ durable: subscription.durable });
  const count = counter(subscription.durable, metrics);
  const unwatch = watchWindow(bus, subscription, log, metrics);

  const ack = async ({ msg }: Received): Promise<void> => {
    try {
      await msg.ackAck();
    } catch (err) {
      // The event is written: a redelivery finds it recorded (handlers are idempotent).
      log.warn({ err, seq: msg.seq }, 'acknowledgement not confirmed');
    }
    count('acked');
  };
  const terminate = ({ msg, event }: Received, err: Error): void => {
    log.error({ err, eventId: event.id, type: event.type }, 'terminated unprocessable event');
    msg.term(err.message);
    count('terminated');
  };

  async function write(batch: Received[]): Promise<void> {
    let outcome: BatchOutcome | void;
    try {
      outcome = await subscription.handleBatch(
        batch.map((item) => item.event),
        batch.map((item) => metaOf(item.msg)),
      );
    } catch (err) {
      if (err instanceof PoisonMessageError) {
        if (batch.length === 1) terminate(batch[0]!, err);
        else for (const item of batch) await write([item]);
        return;
      }
      log.warn(
        { err, events: batch.length, firstEventId: batch[0]!.event.id },
        'batch write failed; will redeliver',
      );
      for (const { msg } of batch) {
        msg.nak(redeliveryDelayMs(msg.info.deliveryCount));
        count('nacked');
      }
      return;
    }
    await Promise.all(
      batch.map(async (item, i) => {
        const poison = outcome?.poisoned?.get(i);
        if (poison) terminate(item, poison);
        else await ack(item);
      }),
    );
    subscription.acknowledged?.();
  }

  // The reader takes messages off the subscription while the writer writes the previous batch; it stops
  // reading once a full batch waits, so the client asks the server for more only as batches are written.
  const waiting: Received[] = [];
  let ended = false;
  let wakeWriter: (() => void) | undefined;
  let wakeReader: (() => void) | undefined;
  /** Until the batch is full, the consumer stops, or `lingerMs` passed. */
  const linger = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, lingerMs);
      wakeWriter = () => {
        if (waiting.length < batchSize && !ended) return;
        clearTimeout(timer);
        resolve();
      };
    });
  const reader = (async () => {
    try {
      for await (const msg of messages) {
        const event = decodeOrTerminate(msg, log, count);
        if (!event) continue;
        waiting.push({ msg, event });
        wakeWriter?.();
        while (waiting.length >= batchSize && !ended) await new Promise<void>((r) => (wakeReader = r));
      }
    } finally {
      ended = true;
      wakeWriter?.();
    }
  })();
  const writer = (async () => {
    while (!ended) {
      if (waiting.length === 0) {
        await new Promise<void>((r) => (wakeWriter = r));
        continue;
      }
      // One turn of the event loop lets the messages already received join the batch: a lone message
      // is written at once, a backlog goes batchSize at a time.
      await new Promise((r) => setImmediate(r));
      if (lingerMs > 0 && waiting.length < batchSize && !ended) await linger();
      const batch = waiting.splice(0, batchSize);
      wakeReader?.();
      await write(batch);
    }
    // Stopped: what was read but not written goes back at once, for the next consumer.
    for (const { msg } of waiting.splice(0)) msg.nak();
  })();
  reader.catch((err: unknown) => log.error({ err }, 'consumer loop ended'));
  writer.catch((err: unknown) => log.error({ err }, 'consumer writer ended'));

  return {
    async stop() {
      unwatch();
      await messages.close();
      ended = true;
      wakeWriter?.();
      wakeReader?.();
      await Promise.all([reader.catch(() => undefined), writer.catch(() => undefined)]);
    },
  };
}
