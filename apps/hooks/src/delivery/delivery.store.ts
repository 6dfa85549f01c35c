import { randomUUID } from 'node:crypto';
import type { Counters } from '@gl/service-kit';
import { duplicatesOnly } from '@gl/service-kit';
import type { HookDoc } from '../hooks.models';
import type { DeliveryAttempt, DeliveryDoc, DeliveryModels, HookProjectDoc } from './delivery.models';
import { createLeaseStore } from './lease.store';

/** The payload of a delivery given up before its payload could be built (the log shows `request_data: null`). */
export const UNBUILT_PAYLOAD = 'null';

export interface QueuedDelivery {
  hook: HookDoc;
  eventId: string;
  /** The event's stream sequence (delivery.models.ts): the hook's order. */
  sequence: number;
  trigger: string;
  eventName: string;
  payload: string;
  /** Set when the payload could not be built: the delivery is logged as failed with this reason, unsent. */
  givenUp?: string;
}

/**
 * The fields of a delivery not yet attempted, due `now` and given up at `giveUpAt`: what queueing, a resend
 * and a hook test start from.
 */
export function unattempted(now: Date, giveUpAt: Date) {
  return {
    status: 'queued' as const,
    attempts: 0,
    nextAttemptAt: now,
    giveUpAt,
    url: null,
    requestHeaders: {},
    last: null,
    reason: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** What one attempt of a delivery records. */
export type AttemptRecord = Pick<
  DeliveryDoc,
  'status' | 'attempts' | 'nextAttemptAt' | 'url' | 'requestHeaders' | 'reason'
> & { last: DeliveryAttempt };

/** The counter of log ids: integers, as GitLab's web_hook_logs ids are. */
const LOG_IDS = 'web_hook_logs';

/** A hook's queue order, along the `{hookId, status, sequence, _id}` index. */
const QUEUE_ORDER = { hookId: 1, status: 1, sequence: 1, _id: 1 } as const;

/** The same index read from the tail: the newest queued first. */
const QUEUE_TAIL = { hookId: -1, status: -1, sequence: -1, _id: -1 } as const;

/** A place in a hook's queue order. */
export type QueuePlace = Pick<DeliveryDoc, 'sequence' | '_id'>;

/**
 * Where a hook's queue is past its bounds (queue-bound.ts). `age`: its head was queued before the cutoff,
 * and `keepFrom` is the first delivery queued since (null: none is). `count`: the queue holds more than
 * the cap, and `keepFrom` is the first of the newest `cap`. Each sets aside what is before its `keepFrom`
 * in queue order, so what stays keeps its order.
 */
export interface QueueOverflow {
  age: { cutoff: Date; keepFrom: QueuePlace | null } | null;
  count: { keepFrom: QueuePlace } | null;
}

/** Whether `a` comes after `b` in a hook's queue order. */
export function queuedAfter(
  a: Pick<DeliveryDoc, 'sequence' | '_id'>,
  b: Pick<DeliveryDoc, 'sequence' | '_id'>,
): boolean {
  return a.sequence > b.sequence || (a.sequence === b.sequence && a._id > b._id);
}

/** The deliveries, the per-hook leases and the project copies: the only code that touches them. */
export function createDeliveryStore(models: DeliveryModels, counters: Counters) {
  const { deliveries } = models;

  /**
   * Queues the deliveries of a batch of events in one insert; those queued before (a redelivered event) are
   * left as they are. Resolves with how many were queued.
   */
  async function queue(items: QueuedDelivery[], now: Date, retryForMs: number): Promise<number> {
    if (items.length === 0) return 0;
    const key = (hookId: number, eventId: string) => `${hookId}:${eventId}`;
    const existing = await deliveries
      .find(
        {
          hookId: { $in: [...new Set(items.map((item) => item.hook._id))] },
          eventId: { $in: [...new Set(items.map((item) => item.eventId))] },
        },
        { hookId: 1, eventId: 1 },
      )
      .lean<Pick<DeliveryDoc, 'hookId' | 'eventId'>[]>();
    const seen = new Set(existing.map((doc) => key(doc.hookId, doc.eventId)));
    const fresh = items.filter((item) => {
      const k = key(item.hook._id, item.eventId);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    if (fresh.length === 0) return 0;
    const firstId = await counters.nextMany(LOG_IDS, fresh.length);
    const docs = fresh.map((item, i): DeliveryDoc => ({
      _id: firstId + i,
      hookId: item.hook._id,
      eventId: item.eventId,
      sequence: item.sequence,
      trigger: item.trigger,
      eventName: item.eventName,
      idempotencyKey: randomUUID(),
      eventUuid: item.eventId,
      payload: item.payload,
      ...unattempted(now, new Date(now.getTime() + retryForMs)),
      ...(item.givenUp === undefined ? {} : { status: 'failed' as const, reason: item.givenUp }),
    }));
    try {
      await deliveries.insertMany(docs, { ordered: false, lean: true });
      return docs.length;
    } catch (err) {
      // Another replica consumed the same events at the same time: its deliveries stand (an unordered
      // insert goes on past a collision, on FerretDB too; its bulk updates do not: bulk-collisions.ts).
      const duplicates = duplicatesOnly(err);
      if (duplicates === null) throw err;
      return docs.length - duplicates;
    }
  }

  /** Hooks with a delivery due now, oldest due first. */
  async function dueHookIds(now: Date, limit = 500): Promise<number[]> {
    const docs = await deliveries
      .find({ status: 'queued', nextAttemptAt: { $lte: now } }, { hookId: 1 })
      .sort({ status: 1, nextAttemptAt: 1 })
      .limit(limit)
      .lean<Pick<DeliveryDoc, 'hookId'>[]>();
    return [...new Set(docs.map((doc) => doc.hookId))];
  }

  /** The hook's next delivery in order: nothing later goes before it is delivered or given up. */
  function head(hookId: number): Promise<DeliveryDoc | null> {
    return deliveries.findOne({ hookId, status: 'queued' }).sort(QUEUE_ORDER).lean<DeliveryDoc>().exec();
  }

  /** The hook's next `limit` deliveries in order (`head` and those right behind it). */
  function queuedHead(hookId: number, limit: number): Promise<DeliveryDoc[]> {
    return deliveries
      .find({ hookId, status: 'queued' })
      .sort(QUEUE_ORDER)
      .limit(limit)
      .lean<DeliveryDoc[]>()
      .exec();
  }

  /**
   * Whether the hook's queue is past `maxDeliveries` or holds deliveries queued before `cutoff`: at most
   * three reads along the queue index (its head, the first young one when the head is old, and the
   * `maxDeliveries`-th from the tail), never a count of the queue. Null when it is within both.
   */
  async function overflow(
    hookId: number,
    maxDeliveries: number,
    cutoff: Date,
  ): Promise<QueueOverflow | null> {
    const place = { sequence: 1, createdAt: 1 };
    const first = await deliveries
      .findOne({ hookId, status: 'queued' }, place)
      .sort(QUEUE_ORDER)
      .lean<QueuePlace & { createdAt: Date }>()
      .exec();
    if (!first) return null;
    const old = new Date(first.createdAt).getTime() < cutoff.getTime();
    const [young, kept] = await Promise.all([
      old
        ? deliveries
            .findOne({ hookId, status: 'queued', createdAt: { $gte: cutoff } }, place)
            .sort(QUEUE_ORDER)
            .lean<QueuePlace>()
            .exec()
        : null,
      deliveries
        .findOne({ hookId, status: 'queued' }, place)
        .sort(QUEUE_TAIL)
        .skip(maxDeliveries - 1)
        .lean<QueuePlace>()
        .exec(),
    ]);
    const overCount = kept !== null && queuedAfter(kept, first);
    if (!old && !overCount) return null;
    return {
      age: old ? { cutoff, keepFrom: young } : null,
      count: overCount ? { keepFrom: kept } : null,
    };
  }

  /**
   * Sets aside the hook's queued deliveries before `keepFrom` in queue order (all with null), and with
   * `queuedBefore` only those queued before it: failed with `reason`, kept in the log, never sent.
   * Resolves how many.
   */
  async function setAside(
    hookId: number,
    keepFrom: QueuePlace | null,
    reason: string,
    now: Date,
    queuedBefore?: Date,
  ): Promise<number> {
    const result = await deliveries.updateMany(
      {
        hookId,
        status: 'queued',
        ...(keepFrom && {
          $or: [
            { sequence: { $lt: keepFrom.sequence } },
            { sequence: keepFrom.sequence, _id: { $lt: keepFrom._id } },
          ],
        }),
        ...(queuedBefore && { createdAt: { $lt: queuedBefore } }),
      },
      { $set: { status: 'failed', reason, updatedAt: now } },
    );
    return result.modifiedCount;
  }

  /** The sequence a resend takes: the hook's last queued delivery's, so it goes after it (by `_id`). */
  async function lastQueuedSequence(hookId: number): Promise<number> {
    const last = await deliveries
      .findOne({ hookId, status: 'queued' }, { sequence: 1 })
      .sort({ hookId: -1, status: -1, sequence: -1, _id: -1 })
      .lean<Pick<DeliveryDoc, 'sequence'>>()
      .exec();
    return last?.sequence ?? 0;
  }

  /** Queued deliveries of the hook due before `until` wait until then (they are behind its head). */
  async function holdBehind(hookId: number, until: Date): Promise<void> {
    await deliveries.updateMany(
      { hookId, status: 'queued', nextAttemptAt: { $lt: until } },
      { $set: { nextAttemptAt: until } },
    );
  }

  /** The attempts of a run of deliveries, in one round trip. */
  async function recordAttempts(records: { id: number; changes: AttemptRecord }[]): Promise<void> {
    if (records.length === 0) return;
    const updatedAt = new Date();
    await deliveries.bulkWrite(
      records.map(({ id, changes }) => ({
        updateOne: { filter: { _id: id }, update: { $set: { ...changes, updatedAt } } },
      })),
      { ordered: false },
    );
  }

  /**
   * A new attempt of a logged delivery (WebHookLog resend): the same payload and Idempotency-Key, queued
   * at the end of the hook's order; null when the hook has no such delivery.
   */
  async function resend(hookId: number, id: number, now = new Date(), retryForMs = 24 * 3_600_000) {
    const original = await find(hookId, id);
    if (!original) return null;
    const doc: DeliveryDoc = {
      ...original,
      _id: await counters.next(LOG_IDS),
      eventId: `${original.eventId}:resend:${randomUUID()}`,
      sequence: await lastQueuedSequence(hookId),
      ...unattempted(now, new Date(now.getTime() + retryForMs)),
    };
    await deliveries.create(doc);
    return doc;
  }

  /** A delivery that ended already (a test): logged as it is, never queued. */
  async function log(doc: DeliveryDoc): Promise<void> {
    await deliveries.create(doc);
  }

  /** The project's copy from identity events, null before its first one and once it is deleted. */
  async function projectCopy(projectId: number): Promise<HookProjectDoc | null> {
    const copy = await models.projects.findById(projectId).lean<HookProjectDoc>().exec();
    return copy?.destroyed ? null : copy;
  }

  /** A fresh log id, as `queue` takes one. */
  function nextId(): Promise<number> {
    return counters.next(LOG_IDS);
  }

  function find(hookId: number, id: number): Promise<DeliveryDoc | null> {
    return deliveries.findOne({ hookId, _id: id }).lean<DeliveryDoc>().exec();
  }

  /**
   * A page of the hook's log since `since`, newest first (WebHookLog.recent), those whose last answer is
   * one of `statuses` when given; `total` counts the whole selection for the pagination headers.
   */
  async function recent(
    hookId: number,
    since: Date,
    page: { skip: number; perPage: number },
    statuses?: string[],
  ): Promise<{ docs: DeliveryDoc[]; total: number }> {
    const filter = {
      hookId,
      createdAt: { $gte: since },
      ...(statuses ? { 'last.responseStatus': { $in: statuses } } : {}),
    };
    const [docs, total] = await Promise.all([
      deliveries
        .find(filter)
        .sort({ hookId: 1, createdAt: -1, _id: -1 })
        .skip(page.skip)
        .limit(page.perPage)
        .lean<DeliveryDoc[]>()
        .exec(),
      deliveries.countDocuments(filter),
    ]);
    return { docs, total };
  }

  function ofHook(hookId: number): Promise<DeliveryDoc[]> {
    return deliveries.find({ hookId }).sort({ hookId: 1, sequence: 1, _id: 1 }).lean<DeliveryDoc[]>().exec();
  }

  return {
    queue,
    dueHookIds,
    ...createLeaseStore(models),
    head,
    queuedHead,
    holdBehind,
    overflow,
    setAside,
    recordAttempts,
    find,
    log,
    nextId,
    projectCopy,
    ofHook,
    recent,
    resend,
  };
}

export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
