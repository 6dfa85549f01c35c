import type { JsMsg, ConsumerMessages } from '@nats-io/jetstream';
import { EVENT_STREAM, eventEnvelope, type EventEnvelope } from '@gl/contracts';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { ServiceMetrics } from '../metrics';
import type { Bus } from './bus';

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

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface Subscription {
  durable: string;
  filterSubjects: string[];
  handle: EventHandler;
}

export interface RunningConsumer {
  stop(): Promise<void>;
}

/** Back-off for redeliveries after a transient failure: 1 s, 2 s, 4 s … capped at 60 s. */
export function redeliveryDelayMs(deliveryCount: number): number {
  return Math.min(60_000, 1_000 * 2 ** Math.max(0, deliveryCount - 1));
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
  await bus.ensureConsumer(subscription.durable, subscription.filterSubjects);
  const consumer = await bus.js.consumers.get(EVENT_STREAM, subscription.durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 64 });
  const log = logger.child({ durable: subscription.durable });
  const count = (outcome: string): void => {
    metrics?.eventsConsumed.inc({ durable: subscription.durable, outcome });
  };

  async function handle(msg: JsMsg): Promise<void> {
    let decoded: unknown;
    try {
      decoded = msg.json();
    } catch {
      decoded = undefined;
    }
    const parsed = eventEnvelope.safeParse(decoded);
    if (!parsed.success) {
      log.error(
        { subject: msg.subject, seq: msg.seq, issues: parsed.error.issues },
        'terminated invalid event',
      );
      msg.term('invalid envelope');
      count('terminated');
      return;
    }
    try {
      await subscription.handle(parsed.data);
      await msg.ackAck();
      count('acked');
    } catch (err) {
      if (err instanceof PoisonMessageError) {
        log.error({ err, eventId: parsed.data.id, type: parsed.data.type }, 'terminated unprocessable event');
        msg.term(err.message);
        count('terminated');
        return;
      }
      const delay = redeliveryDelayMs(msg.info.deliveryCount);
      log.warn({ err, eventId: parsed.data.id, delay }, 'handler failed; will redeliver');
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
      await messages.close();
      await loop.catch(() => undefined);
    },
  };
}
