import { Schema, type Connection, type Model } from 'mongoose';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@gl/contracts';
import type { ServiceMetrics } from '../metrics';
import type { Bus } from './bus';
import { isDuplicateKeyError } from '../mongo/connection';

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
 */
export const OUTBOX_FIELD = '_outbox';
export const OUTBOX_PENDING_FIELD = '_outboxPending';
const RETENTION_MS = 24 * 3600_000;
const REPLAY_WINDOW_MS = 5 * 60_000;
const STALE_PENDING_MS = 30_000;
const BATCH = 100;

interface OutboxEntry {
  _id: string;
  /** The envelope as JSON text: stored verbatim, whatever keys its data holds (FerretDB refuses `.`/`$` keys). */
  payload: string;
  state: 'pending' | 'ready' | 'published';
  check?: { model: string; docId: unknown };
  createdAt: Date;
  publishedAt?: Date;
}

const outboxEntrySchema = new Schema<OutboxEntry>(
  {
    _id: String,
    payload: String,
    state: String,
    check: Schema.Types.Mixed,
    createdAt: Date,
    publishedAt: Date,
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
}

const encode = (events: EventEnvelope[]): string[] => events.map((e) => JSON.stringify(e));

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
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { connection, bus, logger } = options;
  const entries: Model<OutboxEntry> =
    (connection.models.OutboxEntry as Model<OutboxEntry> | undefined) ??
    connection.model<OutboxEntry>('OutboxEntry', outboxEntrySchema, 'outbox');
  const models = new Map<string, AnyModel>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | null = null;
  let again = false;
  let stopped = true;
  let lastPurge = 0;

  async function publishOne(envelope: EventEnvelope): Promise<void> {
    await bus.publish(envelope);
    options.metrics?.eventsPublished.inc({ type: envelope.type });
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

  async function drainEmbedded(model: AnyModel): Promise<number> {
    let published = 0;
    const docs = await model
      .find({ [OUTBOX_PENDING_FIELD]: true })
      .select({ [OUTBOX_FIELD]: 1 })
      .limit(BATCH)
      .lean<{ _id: unknown; _outbox?: string[] }[]>();
    for (const doc of docs) {
      const encoded = doc._outbox ?? [];
      const events = encoded.map((e) => JSON.parse(e) as EventEnvelope);
      for (const event of events) await publishOne(event);
      if (events.length > 0) {
        await recordPublished(events);
        await model.updateOne({ _id: doc._id }, { $pullAll: { [OUTBOX_FIELD]: encoded } });
        published += events.length;
      }
      await model.updateOne(
        { _id: doc._id, [OUTBOX_FIELD]: { $size: 0 } },
        { $unset: { [OUTBOX_FIELD]: 1, [OUTBOX_PENDING_FIELD]: 1 } },
      );
    }
    return published;
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
    for (const entry of ready) {
      await publishOne(JSON.parse(entry.payload) as EventEnvelope);
      await entries.updateOne({ _id: entry._id }, { $set: { state: 'published', publishedAt: new Date() } });
    }
    return ready.length;
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
    for (const model of models.values()) total += await drainEmbedded(model);
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
        do {
          again = false;
          total += await drainAll();
        } while (again);
      } finally {
        running = null;
      }
      return total;
    })();
    return running;
  }

  function tick(): void {
    runDrain().catch((err: unknown) => logger.warn({ err }, 'outbox relay: publish failed, will retry'));
  }

  const outbox: Outbox = {
    register(model) {
      models.set(model.modelName, model);
    },
    async deleteWithEvents(model, id, events) {
      const carried = (
        (
          await model
            .findById(id)
            .select({ [OUTBOX_FIELD]: 1 })
            .lean<{ _outbox?: string[] }>()
        )?._outbox ?? []
      ).map((e) => JSON.parse(e) as EventEnvelope);
      const all = [...carried, ...events];
      const now = Date.now();
      const recorded: string[] = [];
      for (const [index, envelope] of all.entries()) {
        try {
          await entries.create({
            _id: envelope.id,
            payload: JSON.stringify(envelope),
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
      for (const entry of recent) await bus.publish(JSON.parse(entry.payload) as EventEnvelope);
      if (recent.length > 0) logger.info({ count: recent.length }, 'outbox: replayed recent events');
      return recent.length;
    },
    start() {
      stopped = false;
      timer = setInterval(tick, options.intervalMs ?? 1_000);
      timer.unref();
      bus.onReconnect(() => {
        outbox.replayRecent().catch((err: unknown) => logger.warn({ err }, 'outbox replay failed'));
      });
      outbox.replayRecent().catch((err: unknown) => logger.warn({ err }, 'outbox replay failed'));
      tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
  return outbox;
}
