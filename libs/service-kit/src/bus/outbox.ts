import { createHash } from 'node:crypto';
import { Schema, type Connection, type Model } from 'mongoose';
import type { Logger } from 'pino';
import { eventEnvelope, type EventEnvelope } from '@gl/contracts';
import type { ServiceMetrics } from '../metrics';
import type { Bus } from './bus';
import { isDuplicateKeyError } from '../mongo/connection';
import { deadLetterModel, type DeadLetterDoc } from './dead-letters';
import { encodeEnvelope } from './payload-limit';
import { RejectedEventError, failureReason, isMessageRejection } from './publish-errors';

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
export const OUTBOX_FIELD = '_outbox';
export const OUTBOX_PENDING_FIELD = '_outboxPending';
/** Refusals of the document's first unpublished event, and when the relay may try it again. */
export const OUTBOX_ATTEMPTS_FIELD = '_outboxAttempts';
export const OUTBOX_RETRY_AT_FIELD = '_outboxRetryAt';
const OUTBOX_ERROR_FIELD = '_outboxError';
const OUTBOX_FIRST_FAILED_FIELD = '_outboxFirstFailedAt';
const FAILURE_FIELDS = {
  [OUTBOX_ATTEMPTS_FIELD]: 1,
  [OUTBOX_RETRY_AT_FIELD]: 1,
  [OUTBOX_ERROR_FIELD]: 1,
  [OUTBOX_FIRST_FAILED_FIELD]: 1,
} as const;
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

interface OutboxEntry {
  _id: string;
  /** The envelope as JSON text: stored verbatim, whatever keys its data holds (FerretDB refuses `.`/`$` keys). */
  payload: string;
  state: 'pending' | 'ready' | 'published';
  check?: { model: string; docId: unknown };
  createdAt: Date;
  publishedAt?: Date;
  /** Refusals so far, the last one's reason, when the first happened and when to try again. */
  attempts?: number;
  lastError?: string;
  firstFailedAt?: Date;
  nextAttemptAt?: Date;
}

const outboxEntrySchema = new Schema<OutboxEntry>(
  {
    _id: String,
    payload: String,
    state: String,
    check: Schema.Types.Mixed,
    createdAt: Date,
    publishedAt: Date,
    attempts: Number,
    lastError: String,
    firstFailedAt: Date,
    nextAttemptAt: Date,
  },
  { versionKey: false },
);
outboxEntrySchema.index({ state: 1, createdAt: 1 });
outboxEntrySchema.index({ state: 1, publishedAt: 1 });

/**
 * Adds the embedded-outbox fields to a schema whose documents publish events. Events are stored as JSON
 * strings: FerretDB v1 ignores `$pull` with a condition on sub-documents, but `$pullAll` of exact strings
 * works on both servers.
 */
export function addOutboxFields(schema: Schema): void {
  schema.add({ [OUTBOX_FIELD]: { type: [String], default: undefined } });
  schema.add({ [OUTBOX_PENDING_FIELD]: { type: Boolean, index: true } });
  schema.add({
    [OUTBOX_ATTEMPTS_FIELD]: Number,
    [OUTBOX_RETRY_AT_FIELD]: Date,
    [OUTBOX_ERROR_FIELD]: String,
    [OUTBOX_FIRST_FAILED_FIELD]: Date,
  });
}

/** Throws UnpublishableEventError for an event the bus could never take: the write fails, nothing is stored. */
const encode = (events: EventEnvelope[]): string[] => events.map(encodeEnvelope);

/** A new document carrying its events. */
export function withEvents<T extends object>(doc: T, events: EventEnvelope[]): T {
  if (events.length === 0) return doc;
  return { ...doc, [OUTBOX_FIELD]: encode(events), [OUTBOX_PENDING_FIELD]: true };
}

type Update = Record<string, unknown> & { $set?: Record<string, unknown>; $push?: Record<string, unknown> };

/** An update that appends its events to the document in the same atomic write. */
export function pushEvents(update: Update, events: EventEnvelope[]): Update {
  if (events.length === 0) return update;
  return {
    ...update,
    $set: { ...(update.$set ?? {}), [OUTBOX_PENDING_FIELD]: true },
    $push: { ...(update.$push ?? {}), [OUTBOX_FIELD]: { $each: encode(events) } },
  };
}

// Mongoose models are invariant in their document type, so a registry of models of every kind needs `any`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyModel = Model<any>;

export interface Outbox {
  /** Models whose documents may carry `_outbox` events. */
  register(model: AnyModel): void;
  /** Deletes one document by id and publishes its events (and any it still carried), crash-safe. */
  deleteWithEvents(model: AnyModel, id: unknown, events: EventEnvelope[]): Promise<boolean>;
  /** Asks the relay to run now (after a write), instead of waiting for its next tick. */
  kick(): void;
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

/** A stored event that does not parse, or is not an envelope, can never be published. */
function decode(raw: string): EventEnvelope {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new RejectedEventError('stored event is not JSON');
  }
  const parsed = eventEnvelope.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RejectedEventError(`not an event envelope: ${issue?.path.join('.')} ${issue?.message}`);
  }
  // The stored envelope itself, not zod's copy: it is published exactly as it was written.
  return value as EventEnvelope;
}

/** What one try to publish a stored event came to; a refusal carries the envelope when it parsed. */
type Outcome =
  { ok: true; envelope: EventEnvelope } | { ok: false; envelope: EventEnvelope | null; reason: string };

/** Refusals so far of the event a document or queue entry is stuck on. */
interface FailureSoFar {
  attempts: number;
  firstFailedAt: Date | null;
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { connection, bus, logger } = options;
  const entries: Model<OutboxEntry> =
    (connection.models.OutboxEntry as Model<OutboxEntry> | undefined) ??
    connection.model<OutboxEntry>('OutboxEntry', outboxEntrySchema, 'outbox');
  const deadLetters = deadLetterModel(connection);
  if (options.metrics) options.metrics.countDeadLetters = () => deadLetters.countDocuments();
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const retryBaseMs = options.retryBaseMs ?? RETRY_BASE_MS;
  const intervalMs = options.intervalMs ?? SWEEP_INTERVAL_MS;
  const models = new Map<string, AnyModel>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let again = false;
  /** Set by a pass that read as many documents or entries as it may: more may be waiting. */
  let fullBatch = false;
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
      envelope = decode(raw);
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
    again = true;
  }

  async function recordPublished(envelopes: EventEnvelope[]): Promise<void> {
    const now = new Date();
    await entries.bulkWrite(
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
      { ordered: false },
    );
  }

  interface PendingDoc {
    _id: unknown;
    _outbox?: string[];
    _outboxAttempts?: number;
    _outboxFirstFailedAt?: Date;
  }

  /** One document's events in a pass: what went out, and what stopped it (later events wait behind). */
  interface DocumentDrain {
    model: AnyModel;
    doc: PendingDoc;
    sent: string[];
    events: EventEnvelope[];
    refused: { raw: string; outcome: Extract<Outcome, { ok: false }> } | null;
    brokerFailed: boolean;
  }

  /**
   * Publishes the events of a batch of documents. Round k sends the k-th event of every document still
   * going, all at once on one connection: the broker receives them in this order, so a document's events
   * keep theirs, and a batch costs a few round trips instead of several per document.
   */
  async function publishRounds(drains: DocumentDrain[]): Promise<unknown> {
    let brokerError: unknown;
    for (let k = 0; brokerError === undefined; k++) {
      const round = drains.filter((d) => d.refused === null && k < (d.doc._outbox?.length ?? 0));
      if (round.length === 0) break;
      const results = await Promise.allSettled(round.map((d) => tryPublish(d.doc._outbox![k]!)));
      results.forEach((result, i) => {
        const drain = round[i]!;
        const raw = drain.doc._outbox![k]!;
        if (result.status === 'rejected') {
          // Broker unreachable: this pass ends once what did go out is recorded.
          brokerError ??= result.reason;
          drain.brokerFailed = true;
        } else if (result.value.ok) {
          drain.sent.push(raw);
          drain.events.push(result.value.envelope);
        } else {
          drain.refused = { raw, outcome: result.value };
        }
      });
    }
    return brokerError;
  }

  /** When a document's first pending event occurred (0 when it does not say): the publishing order. */
  function firstOccurredAt(doc: PendingDoc): number {
    try {
      const first = JSON.parse(doc._outbox?.[0] ?? '{}') as { occurredAt?: unknown };
      const at = typeof first.occurredAt === 'string' ? Date.parse(first.occurredAt) : NaN;
      return Number.isNaN(at) ? 0 : at;
    } catch {
      return 0;
    }
  }

  async function readPending(model: AnyModel, now: Date): Promise<PendingDoc[]> {
    // Documents whose first event was refused wait out their delay without being read again.
    const docs = await model
      .find({
        [OUTBOX_PENDING_FIELD]: true,
        $or: [{ [OUTBOX_RETRY_AT_FIELD]: { $exists: false } }, { [OUTBOX_RETRY_AT_FIELD]: { $lte: now } }],
      })
      .select({ [OUTBOX_FIELD]: 1, [OUTBOX_ATTEMPTS_FIELD]: 1, [OUTBOX_FIRST_FAILED_FIELD]: 1 })
      .limit(BATCH)
      .lean<PendingDoc[]>();
    if (docs.length === BATCH) fullBatch = true;
    return docs;
  }

  /**
   * Publishes what the documents of every registered model carry, in the order the events occurred across
   * models (a comment, then a push, go out in that order though they live in different collections), then
   * takes the published events off their documents.
   */
  async function drainEmbedded(): Promise<number> {
    const now = new Date();
    const drains: DocumentDrain[] = [];
    for (const model of models.values()) {
      for (const doc of await readPending(model, now)) {
        drains.push({ model, doc, sent: [], events: [], refused: null, brokerFailed: false });
      }
    }
    if (drains.length === 0) return 0;
    const order = new Map(drains.map((d) => [d, firstOccurredAt(d.doc)]));
    drains.sort((x, y) => order.get(x)! - order.get(y)!);
    const brokerError = await publishRounds(drains);

    const published = drains.filter((d) => d.events.length > 0);
    if (published.length > 0) await recordPublished(published.flatMap((d) => d.events));
    for (const model of models.values()) {
      await settleDocuments(
        model,
        drains.filter((d) => d.model === model),
      );
    }
    if (brokerError !== undefined) {
      throw brokerError instanceof Error ? brokerError : new Error('broker error', { cause: brokerError });
    }
    return published.reduce((sum, d) => sum + d.events.length, 0);
  }

  /** Takes one model's published events off their documents, records refusals, clears emptied outboxes. */
  async function settleDocuments(model: AnyModel, drains: DocumentDrain[]): Promise<void> {
    const published = drains.filter((d) => d.events.length > 0);
    if (published.length > 0) {
      await model.bulkWrite(
        published.map((d) => ({
          updateOne: {
            filter: { _id: d.doc._id },
            // Computed keys: the driver's update types cannot follow them.
            update: {
              $pullAll: { [OUTBOX_FIELD]: d.sent },
              ...(d.doc._outboxAttempts !== undefined && !d.refused ? { $unset: FAILURE_FIELDS } : {}),
            } as never,
          },
        })),
        { ordered: false },
      );
    }
    for (const { doc, events, refused } of drains) {
      if (!refused) continue;
      // A refusal of a later event than the one that failed before starts a new count.
      const before: FailureSoFar =
        events.length === 0
          ? { attempts: doc._outboxAttempts ?? 0, firstFailedAt: doc._outboxFirstFailedAt ?? null }
          : { attempts: 0, firstFailedAt: null };
      await refuseEmbedded(model, doc._id, refused.raw, refused.outcome, before);
    }
    const settled = drains.filter((d) => !d.brokerFailed);
    if (settled.length > 0) {
      await model.bulkWrite(
        settled.map((d) => ({
          updateOne: {
            filter: { _id: d.doc._id, [OUTBOX_FIELD]: { $size: 0 } },
            update: { $unset: { [OUTBOX_FIELD]: 1, [OUTBOX_PENDING_FIELD]: 1, ...FAILURE_FIELDS } },
          },
        })),
        { ordered: false },
      );
    }
  }

  async function refuseEmbedded(
    model: AnyModel,
    docId: unknown,
    raw: string,
    refused: Extract<Outcome, { ok: false }>,
    before: FailureSoFar,
  ): Promise<void> {
    const now = new Date();
    const failure = nextFailure(before, now);
    if (failure.exhausted) {
      const id = refused.envelope?.id ?? createHash('sha1').update(raw).digest('hex');
      await setAside(id, raw, refused, failure, { kind: 'embedded', model: model.modelName, docId }, now);
      await model.updateOne({ _id: docId }, { $pullAll: { [OUTBOX_FIELD]: [raw] }, $unset: FAILURE_FIELDS });
      return;
    }
    await model.updateOne(
      { _id: docId },
      {
        $set: {
          [OUTBOX_ATTEMPTS_FIELD]: failure.attempts,
          [OUTBOX_RETRY_AT_FIELD]: failure.retryAt,
          [OUTBOX_ERROR_FIELD]: refused.reason,
          [OUTBOX_FIRST_FAILED_FIELD]: failure.firstFailedAt,
        },
      },
    );
    logger.warn(
      {
        eventId: refused.envelope?.id,
        model: model.modelName,
        attempts: failure.attempts,
        reason: refused.reason,
      },
      'outbox relay: the broker refused an event; will try again',
    );
  }

  async function resolveStalePending(): Promise<void> {
    const stale = await entries
      .find({ state: 'pending', createdAt: { $lt: new Date(Date.now() - STALE_PENDING_MS) } })
      .limit(BATCH)
      .lean<OutboxEntry[]>();
    for (const entry of stale) {
      const model = entry.check ? models.get(entry.check.model) : undefined;
      if (!model) continue;
      const stillThere = await model.exists({ _id: entry.check!.docId });
      if (stillThere) await entries.deleteOne({ _id: entry._id, state: 'pending' });
      else await entries.updateOne({ _id: entry._id, state: 'pending' }, { $set: { state: 'ready' } });
    }
  }

  async function drainReady(): Promise<number> {
    const ready = await entries
      .find({ state: 'ready' })
      .sort({ createdAt: 1 })
      .limit(BATCH)
      .lean<OutboxEntry[]>();
    if (ready.length === BATCH) fullBatch = true;
    const now = Date.now();
    // A deleted document's events (its carried ones, then the delete) keep their order: once one of them
    // waits, the rest of that document's wait too. Entries of other documents go on.
    const waiting = new Set<string>();
    let published = 0;
    for (const entry of ready) {
      const key = entry.check ? `${entry.check.model}:${String(entry.check.docId)}` : entry._id;
      if (waiting.has(key)) continue;
      if (entry.nextAttemptAt && entry.nextAttemptAt.getTime() > now) {
        waiting.add(key);
        continue;
      }
      const outcome = await tryPublish(entry.payload);
      if (outcome.ok) {
        await entries.updateOne(
          { _id: entry._id },
          {
            $set: { state: 'published', publishedAt: new Date() },
            ...(entry.attempts !== undefined
              ? { $unset: { attempts: 1, lastError: 1, firstFailedAt: 1, nextAttemptAt: 1 } }
              : {}),
          },
        );
        published++;
        continue;
      }
      waiting.add(key);
      const failure = nextFailure(
        { attempts: entry.attempts ?? 0, firstFailedAt: entry.firstFailedAt ?? null },
        new Date(),
      );
      if (failure.exhausted) {
        await setAside(entry._id, entry.payload, outcome, failure, { kind: 'outbox' }, new Date());
        await entries.deleteOne({ _id: entry._id, state: 'ready' });
      } else {
        await entries.updateOne(
          { _id: entry._id },
          {
            $set: {
              attempts: failure.attempts,
              lastError: outcome.reason,
              firstFailedAt: failure.firstFailedAt,
              nextAttemptAt: failure.retryAt,
            },
          },
        );
        logger.warn(
          { eventId: entry._id, attempts: failure.attempts, reason: outcome.reason },
          'outbox relay: the broker refused an event; will try again',
        );
      }
    }
    return published;
  }

  async function purgeOld(): Promise<void> {
    if (Date.now() - lastPurge < 60_000) return;
    lastPurge = Date.now();
    await entries.deleteMany({
      state: 'published',
      publishedAt: { $lt: new Date(Date.now() - RETENTION_MS) },
    });
  }

  async function drainAll(): Promise<number> {
    let total = 0;
    await resolveStalePending();
    total += await drainReady();
    total += await drainEmbedded();
    await purgeOld();
    return total;
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
        let published: number;
        do {
          again = false;
          fullBatch = false;
          published = await drainAll();
          total += published;
        } while (again || (fullBatch && published > 0));
        failedPasses = 0;
        pausedUntil = 0;
      } catch (err) {
        // Broker or database unreachable: every event stays where it is; wait longer after each failure.
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

  const outbox: Outbox = {
    register(model) {
      // Only documents of schemas with the outbox fields (addOutboxFields) carry events; draining any
      // other model would read it whole on every pass, since only those fields are indexed.
      if (model.schema.path(OUTBOX_PENDING_FIELD) === undefined) return;
      models.set(model.modelName, model);
    },
    async deleteWithEvents(model, id, events) {
      const fresh = encode(events);
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
      const { deletedCount } = await model.deleteOne({ _id: id });
      if (deletedCount !== 1) {
        await entries.deleteMany({ _id: { $in: recorded }, state: 'pending' });
        return false;
      }
      // Only our own pending entries: one the relay recorded as published meanwhile stays published.
      await entries.updateMany({ _id: { $in: recorded }, state: 'pending' }, { $set: { state: 'ready' } });
      outbox.kick();
      return true;
    },
    kick() {
      if (!stopped) setImmediate(tick);
    },
    drain: () => runDrain(),
    async replayRecent(windowMs = REPLAY_WINDOW_MS) {
      const recent = await entries
        .find({ state: 'published', publishedAt: { $gte: new Date(Date.now() - windowMs) } })
        .sort({ createdAt: 1 })
        .lean<OutboxEntry[]>();
      for (const entry of recent) {
        try {
          await bus.publish(JSON.parse(entry.payload) as EventEnvelope);
        } catch (err) {
          // Refused now (a restarted broker with a smaller max_payload): it was acknowledged once; the rest
          // of the window still needs replaying.
          if (!isMessageRejection(err)) throw err;
          logger.warn({ eventId: entry._id, reason: failureReason(err) }, 'outbox replay: event refused');
        }
      }
      if (recent.length > 0) logger.info({ count: recent.length }, 'outbox: replayed recent events');
      return recent.length;
    },
    start() {
      stopped = false;
      timer = setInterval(tick, intervalMs);
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
