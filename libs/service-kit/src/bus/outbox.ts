import type { Connection, Model } from 'mongoose';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@gl/contracts';
import type { ServiceMetrics } from '../metrics';
import type { Bus } from './bus';
import { bulkUpdate } from '../mongo/batched-update';
import { isDuplicateKeyError } from '../mongo/connection';
import { deadLetterModel, type DeadLetterDoc } from './dead-letters';
import { createEmbeddedDrain, type FailureSoFar, type Outcome, type RelayPass } from './embedded-drain';
import { countBacklog } from './outbox-backlog';
import { createQueueDrain } from './queue-drain';
import { createRelayTargets } from './relay-targets';
import { replayPublished } from './replay-published';
import {
  OUTBOX_FIELD,
  OUTBOX_PENDING_FIELD,
  decodeStoredEvent,
  encodeEvents,
  outboxEntrySchema,
  type AnyModel,
  type OutboxEntry,
} from './outbox-documents';

export {
  OUTBOX_ATTEMPTS_FIELD,
  OUTBOX_FIELD,
  OUTBOX_PENDING_FIELD,
  OUTBOX_RETRY_AT_FIELD,
  addOutboxFields,
  pushEvents,
  withEvents,
  type AnyModel,
} from './outbox-documents';
import { failureReason, isMessageRejection } from './publish-errors';

/**
 * Transactional outbox without transactions (FerretDB has none):
 *
 * - Inserts and updates carry their events inside the written document (`_outbox`, `_outboxPending`), so the
 *   write and its events commit in one single-document atomic operation.
 * - Deletes cannot carry anything, so their events are stored first as `pending` entries that name the
 *   document; once the delete succeeded they become `ready`. After a crash in between, the relay decides
 *   by looking: document gone → publish, document still there → drop.
 * - The relay publishes to JetStream with `msgID = event.id` until acknowledged, then keeps a copy for
 *   RETENTION_MS and replays the last REPLAY_WINDOW_MS after reconnects, because a broker that crashed may
 *   have lost messages it acknowledged but had not yet synced to disk (JetStream drops the duplicates).
 * - Two kinds of failure. The broker unreachable or busy (timeouts, no responders, reconnecting): nothing
 *   is wrong with the events, so the relay keeps every one and retries, pausing longer after each failed
 *   pass (up to RELAY_PAUSE_MAX_MS) so an outage does not keep the database busy. The broker refusing one
 *   message (over `max_payload`, bad subject — publish-errors.ts): that event is tried again after a
 *   growing delay, and after `maxAttempts` refusals it is set aside in `outbox_dead_letters`
 *   (dead-letters.ts) with the reason, logged and counted, and the relay moves on. Events behind a refused
 *   one on the same document wait for it (their order holds); events of other documents do not.
 * - Events are checked when written (payload-limit.ts): one that can never be published fails the write.
 */
const RETENTION_MS = 24 * 3600_000;
const REPLAY_WINDOW_MS = 5 * 60_000;
const STALE_PENDING_MS = 30_000;
const BATCH = 100;
/** Tries before an event the broker refuses is set aside (OUTBOX_MAX_ATTEMPTS). */
export const DEFAULT_MAX_ATTEMPTS = 5;
/** After n refusals the next try waits RETRY_BASE_MS · 2^(n-1), at most RETRY_MAX_MS: 1 s, 2 s, 4 s, 8 s. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 60_000;
/** Longest pause between relay passes while the broker (or the database) is unreachable. */
const RELAY_PAUSE_MAX_MS = 10_000;
/** First pause after a failed pass; it doubles up to RELAY_PAUSE_MAX_MS. */
const RELAY_PAUSE_BASE_MS = 1_000;
/**
 * The relay's safety sweep. Every write kicks the relay of its own process and a refused event wakes it
 * when its retry is due, so the sweep only finds what another process left behind (a replica that crashed
 * between its write and the kick): it can be rare, and an idle stack stays idle.
 */
const SWEEP_INTERVAL_MS = 10_000;

export interface Outbox {
  /** Models whose documents may carry `_outbox` events. */
  register(model: AnyModel): void;
  /** Deletes one document by id (if it still matches `where`) and publishes its events, crash-safe. */
  deleteWithEvents(model: AnyModel, id: unknown, events: EventEnvelope[], where?: object): Promise<boolean>;
  /**
   * Asks the relay to run now (after a write), instead of waiting for its next sweep. Naming the model
   * written (or its name) lets the pass read that collection alone; without it the pass reads everything.
   */
  kick(written?: AnyModel | string): void;
  /** Publishes everything pending once; resolves with the number of events published. */
  drain(): Promise<number>;
  replayRecent(windowMs?: number): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export interface OutboxOptions {
  connection: Connection;
  bus: Bus;
  logger: Logger;
  metrics?: ServiceMetrics;
  intervalMs?: number;
  /** Tries before an event the broker refuses is set aside (default DEFAULT_MAX_ATTEMPTS). */
  maxAttempts?: number;
  /** Wait after the first refusal, doubling after each further one (default 1 s; tests use 0). */
  retryBaseMs?: number;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { connection, bus, logger } = options;
  const entries: Model<OutboxEntry> =
    (connection.models.OutboxEntry as Model<OutboxEntry> | undefined) ??
    connection.model<OutboxEntry>('OutboxEntry', outboxEntrySchema, 'outbox');
  const deadLetters = deadLetterModel(connection);
  if (options.metrics) options.metrics.countDeadLetters = () => deadLetters.countDocuments();
  const models = new Map<string, AnyModel>();
  if (options.metrics) options.metrics.countOutboxBacklog = () => countBacklog(entries, models.values());
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const retryBaseMs = options.retryBaseMs ?? RETRY_BASE_MS;
  const intervalMs = options.intervalMs ?? SWEEP_INTERVAL_MS;
  const relayParts = { models, logger, batch: BATCH, tryPublish, recordPublished, nextFailure, setAside };
  const embedded = createEmbeddedDrain(relayParts);
  const queue = createQueueDrain({ ...relayParts, entries, staleMs: STALE_PENDING_MS });
  const targets = createRelayTargets();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = true;
  let lastPurge = 0;
  /** Consecutive passes that failed (broker or database unreachable) and the pause they earned. */
  let failedPasses = 0;
  let pausedUntil = 0;

  let wakeTimer: NodeJS.Timeout | undefined;
  let wakeTime = Infinity;
  /**
   * Schedules a pass for when a refused event may be tried again or a pause after a failed pass ends
   * (the sweep is too rare for either).
   */
  function wakeAt(at: Date): Date {
    if (!stopped && at.getTime() < wakeTime) {
      clearTimeout(wakeTimer);
      wakeTime = at.getTime();
      wakeTimer = setTimeout(
        () => {
          wakeTime = Infinity;
          targets.everything();
          tick();
        },
        Math.max(0, wakeTime - Date.now()),
      );
      wakeTimer.unref();
    }
    return at;
  }

  async function publishOne(envelope: EventEnvelope): Promise<void> {
    await bus.publish(envelope);
    options.metrics?.eventsPublished.inc({ type: envelope.type });
  }

  /**
   * Publishes one stored event. A refusal of this message is returned; any other failure (broker
   * unreachable, timeout) is thrown and ends the pass, with every event kept for the next one.
   */
  async function tryPublish(raw: string): Promise<Outcome> {
    let envelope: EventEnvelope | null = null;
    try {
      envelope = decodeStoredEvent(raw);
      await publishOne(envelope);
      return { ok: true, envelope };
    } catch (err) {
      if (!isMessageRejection(err)) throw err;
      return { ok: false, envelope, reason: failureReason(err) };
    }
  }

  function nextFailure(before: FailureSoFar, now: Date) {
    const attempts = before.attempts + 1;
    return {
      attempts,
      firstFailedAt: before.firstFailedAt ?? now,
      retryAt: wakeAt(new Date(now.getTime() + Math.min(RETRY_MAX_MS, retryBaseMs * 2 ** (attempts - 1)))),
      exhausted: attempts >= maxAttempts,
    };
  }

  /** Moves a refused event to `outbox_dead_letters` (idempotent by id), logs and counts it. */
  async function setAside(
    id: string,
    raw: string,
    refused: Extract<Outcome, { ok: false }>,
    failure: { attempts: number; firstFailedAt: Date },
    source: DeadLetterDoc['source'],
    now: Date,
  ): Promise<void> {
    const type = refused.envelope?.type ?? 'invalid';
    await deadLetters.updateOne(
      { _id: id },
      {
        $set: {
          type,
          payload: raw,
          reason: refused.reason,
          attempts: failure.attempts,
          source,
          firstFailedAt: failure.firstFailedAt,
          lastFailedAt: now,
          setAsideAt: now,
        },
      },
      { upsert: true },
    );
    options.metrics?.outboxSetAside.inc({ type });
    logger.error(
      { eventId: id, type, attempts: failure.attempts, reason: refused.reason, source },
      'outbox relay: the broker refused an event on every try; set aside in outbox_dead_letters ' +
        '(list and republish with outbox-dead-letters), moving on',
    );
    // The events that waited behind it can go now.
    targets.everything();
    again = true;
  }

  async function recordPublished(envelopes: EventEnvelope[]): Promise<void> {
    const now = new Date();
    await bulkUpdate(
      entries,
      envelopes.map((envelope) => ({
        updateOne: {
          filter: { _id: envelope.id },
          update: {
            $set: { state: 'published', publishedAt: now, payload: JSON.stringify(envelope) },
            $setOnInsert: { createdAt: new Date(envelope.occurredAt) },
          },
          upsert: true,
        },
      })),
    );
  }

  async function purgeOld(): Promise<void> {
    if (Date.now() - lastPurge < 60_000) return;
    lastPurge = Date.now();
    await entries.deleteMany({
      state: 'published',
      publishedAt: { $lt: new Date(Date.now() - RETENTION_MS) },
    });
  }

  async function drainAll(): Promise<RelayPass> {
    const only = targets.take();
    const queuePass = only.queue ? await queue.drain() : { published: 0, fullBatch: false };
    const embeddedPass = await embedded.drain(only.models);
    await purgeOld();
    const fullBatch = queuePass.fullBatch || embeddedPass.fullBatch;
    // A backlog: the next pass reads everything, as the pass after a failure does.
    if (fullBatch) targets.everything();
    return { published: queuePass.published + embeddedPass.published, fullBatch };
  }

  function runDrain(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let total = 0;
      try {
        // A pass reads at most BATCH documents per model. A backlog (a burst of writes, a broker outage)
        // drains pass after pass while passes fill a batch and publish, not one batch per sweep; events
        // waiting out a retry delay publish nothing and end the loop.
        let pass: RelayPass;
        do {
          again = false;
          pass = await drainAll();
          total += pass.published;
        } while (again || (pass.fullBatch && pass.published > 0));
        failedPasses = 0;
        pausedUntil = 0;
      } catch (err) {
        // Broker or database unreachable: every event stays where it is; wait longer after each failure.
        targets.everything();
        failedPasses++;
        const pauseMs = Math.min(RELAY_PAUSE_MAX_MS, RELAY_PAUSE_BASE_MS * 2 ** (failedPasses - 1));
        pausedUntil = Date.now() + pauseMs;
        wakeAt(new Date(pausedUntil));
        logger.warn({ err, failedPasses, pauseMs }, 'outbox relay: publish failed, will retry');
        throw err;
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  }

  function tick(): void {
    if (Date.now() < pausedUntil) return;
    runDrain().catch(() => undefined); // logged in runDrain
  }

  function schedule(): void {
    if (!stopped) setImmediate(tick);
  }

  const outbox: Outbox = {
    register(model) {
      // Only documents of schemas with the outbox fields (addOutboxFields) carry events; draining any
      // other model would read it whole on every pass, since only those fields are indexed.
      if (model.schema.path(OUTBOX_PENDING_FIELD) === undefined) return;
      models.set(model.modelName, model);
    },
    async deleteWithEvents(model, id, events, where = {}) {
      const fresh = encodeEvents(events);
      const carried =
        (
          await model
            .findById(id)
            .select({ [OUTBOX_FIELD]: 1 })
            .lean<{ _outbox?: string[] }>()
        )?._outbox ?? [];
      const all = [...carried, ...fresh];
      const now = Date.now();
      const recorded: string[] = [];
      for (const [index, payload] of all.entries()) {
        const envelope = JSON.parse(payload) as EventEnvelope;
        try {
          await entries.create({
            _id: envelope.id,
            payload,
            state: 'pending',
            check: { model: model.modelName, docId: id },
            createdAt: new Date(now + index),
          });
          recorded.push(envelope.id);
        } catch (err) {
          // The relay may have published a carried event (and recorded it) since we read the document:
          // it needs nothing more from us.
          if (!(isDuplicateKeyError(err) && index < carried.length)) throw err;
        }
      }
      const { deletedCount } = await model.deleteOne({ ...where, _id: id });
      if (deletedCount !== 1) {
        await entries.deleteMany({ _id: { $in: recorded }, state: 'pending' });
        return false;
      }
      // Only our own pending entries: one the relay recorded as published meanwhile stays published.
      await entries.updateMany({ _id: { $in: recorded }, state: 'pending' }, { $set: { state: 'ready' } });
      targets.queue();
      schedule();
      return true;
    },
    kick(written) {
      if (written === undefined) targets.everything();
      else targets.model(typeof written === 'string' ? written : written.modelName);
      schedule();
    },
    drain: () => {
      targets.everything();
      return runDrain();
    },
    replayRecent: (windowMs = REPLAY_WINDOW_MS) => replayPublished(entries, bus, logger, windowMs),
    start() {
      stopped = false;
      timer = setInterval(() => {
        targets.everything();
        tick();
      }, intervalMs);
      timer.unref();
      bus.onReconnect(() => {
        // The broker is back: whatever waited for it goes now, not after the pause.
        failedPasses = 0;
        pausedUntil = 0;
        outbox.kick();
        outbox.replayRecent().catch((err: unknown) => logger.warn({ err }, 'outbox replay failed'));
      });
      outbox.replayRecent().catch((err: unknown) => logger.warn({ err }, 'outbox replay failed'));
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      clearTimeout(wakeTimer);
      await running?.catch(() => undefined);
    },
  };
  return outbox;
}
