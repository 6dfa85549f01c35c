import { bulkUpdate } from '../mongo/batched-update';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@gl/contracts';
import type { DeadLetterDoc } from './dead-letters';
import type { PassTargets } from './relay-targets';
import {
  FAILURE_FIELDS,
  OUTBOX_ATTEMPTS_FIELD,
  OUTBOX_ERROR_FIELD,
  OUTBOX_FIELD,
  OUTBOX_FIRST_FAILED_FIELD,
  OUTBOX_PENDING_FIELD,
  OUTBOX_RETRY_AT_FIELD,
  type AnyModel,
} from './outbox-documents';

/** What one try to publish a stored event came to; a refusal carries the envelope when it parsed. */
export type Outcome =
  { ok: true; envelope: EventEnvelope } | { ok: false; envelope: EventEnvelope | null; reason: string };

/** Refusals so far of the event a document or queue entry is stuck on. */
export interface FailureSoFar {
  attempts: number;
  firstFailedAt: Date | null;
}

/** What one pass of a drain did: events published, and whether it read a full batch (more may wait). */
export interface RelayPass {
  published: number;
  fullBatch: boolean;
}

/** What the relay lends the embedded drain: publishing, recording, retry bookkeeping and setting aside. */
export interface EmbeddedDrainDeps {
  models: Map<string, AnyModel>;
  logger: Logger;
  batch: number;
  tryPublish: (raw: string) => Promise<Outcome>;
  recordPublished: (envelopes: EventEnvelope[]) => Promise<void>;
  nextFailure: (
    before: FailureSoFar,
    now: Date,
  ) => { attempts: number; firstFailedAt: Date; retryAt: Date; exhausted: boolean };
  setAside: (
    id: string,
    raw: string,
    refused: Extract<Outcome, { ok: false }>,
    failure: { attempts: number; firstFailedAt: Date },
    source: DeadLetterDoc['source'],
    now: Date,
  ) => Promise<void>;
}

/**
 * The relay's pass over documents that carry their events (`_outbox`): reads up to a batch per model,
 * publishes in the order the events occurred, takes the published ones off their documents, and counts
 * refusals. `drain()` tells how many events went out and whether some model filled its batch.
 */
export function createEmbeddedDrain(deps: EmbeddedDrainDeps) {
  const { models, logger, tryPublish, recordPublished, nextFailure, setAside } = deps;
  const BATCH = deps.batch;

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
    return docs;
  }

  /**
   * Publishes what the documents of every registered model carry, in the order the events occurred across
   * models (a comment, then a push, go out in that order though they live in different collections), then
   * takes the published events off their documents.
   */
  async function drainEmbedded(only: PassTargets['models'] = 'all'): Promise<RelayPass> {
    const now = new Date();
    const drains: DocumentDrain[] = [];
    let fullBatch = false;
    const targets = [...models.values()].filter((m) => only === 'all' || only.has(m.modelName));
    for (const model of targets) {
      const docs = await readPending(model, now);
      if (docs.length === BATCH) fullBatch = true;
      for (const doc of docs) {
        drains.push({ model, doc, sent: [], events: [], refused: null, brokerFailed: false });
      }
    }
    if (drains.length === 0) return { published: 0, fullBatch };
    const order = new Map(drains.map((d) => [d, firstOccurredAt(d.doc)]));
    drains.sort((x, y) => order.get(x)! - order.get(y)!);
    const brokerError = await publishRounds(drains);

    const published = drains.filter((d) => d.events.length > 0);
    if (published.length > 0) await recordPublished(published.flatMap((d) => d.events));
    for (const model of targets) {
      await settleDocuments(
        model,
        drains.filter((d) => d.model === model),
      );
    }
    if (brokerError !== undefined) {
      throw brokerError instanceof Error ? brokerError : new Error('broker error', { cause: brokerError });
    }
    return { published: published.reduce((sum, d) => sum + d.events.length, 0), fullBatch };
  }

  /**
   * Clears, in one command, the documents whose every event went out and that gained none since they were
   * read (their `_outbox` is still exactly what was read): the usual case, one write per pass. Returns the
   * documents it could not vouch for, which take the general path.
   */
  async function clearFullySent(model: AnyModel, drains: DocumentDrain[]): Promise<DocumentDrain[]> {
    const whole = drains.filter(
      (d) => !d.refused && !d.brokerFailed && d.sent.length > 0 && d.sent.length === d.doc._outbox?.length,
    );
    if (whole.length === 0) return drains;
    const matched = await bulkUpdate(
      model,
      whole.map((d) => ({
        updateOne: {
          filter: { _id: d.doc._id, [OUTBOX_FIELD]: d.doc._outbox },
          update: { $unset: { [OUTBOX_FIELD]: 1, [OUTBOX_PENDING_FIELD]: 1, ...FAILURE_FIELDS } },
        },
      })),
    );
    // Some document gained an event meanwhile: the general path below is safe for all of them (pulling
    // events already gone is a no-op, and a cleared document no longer matches `$size: 0`).
    return matched === whole.length ? drains.filter((d) => !whole.includes(d)) : drains;
  }

  /** Takes one model's published events off their documents, records refusals, clears emptied outboxes. */
  async function settleDocuments(model: AnyModel, all: DocumentDrain[]): Promise<void> {
    const drains = await clearFullySent(model, all);
    const published = drains.filter((d) => d.events.length > 0);
    if (published.length > 0) {
      await bulkUpdate(
        model,
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
      await bulkUpdate(
        model,
        settled.map((d) => ({
          updateOne: {
            filter: { _id: d.doc._id, [OUTBOX_FIELD]: { $size: 0 } },
            update: { $unset: { [OUTBOX_FIELD]: 1, [OUTBOX_PENDING_FIELD]: 1, ...FAILURE_FIELDS } },
          },
        })),
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

  return { drain: drainEmbedded };
}
