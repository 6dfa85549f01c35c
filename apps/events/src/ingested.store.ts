import type { Model } from 'mongoose';
import { deleteManyInBatches, type Counters } from '@gl/service-kit';
import type { IngestedDoc } from './events.models';

/** What the recorder wrote for an event: its activity event's id, or null when it records none. */
export interface IngestedRecord {
  eventId: string;
  activityId: number | null;
}

/**
 * `ingested`: one record per domain event the activity log applied, keyed by the event id, which makes
 * ingestion idempotent. An event's activity id is claimed (`done: false`) before its activity is written,
 * so a delivery cut short and redelivered reuses it; `done` marks the event fully recorded.
 */
export function createIngestedStore(ingested: Model<IngestedDoc>, counters: Counters) {
  /** By `_id`, which FerretDB answers without scanning. */
  const find = async (eventIds: string[]): Promise<Map<string, IngestedDoc>> => {
    if (eventIds.length === 0) return new Map();
    const found = await ingested.find({ _id: { $in: eventIds } }).lean<IngestedDoc[]>();
    return new Map(found.map((doc) => [doc._id, doc]));
  };

  return {
    find,

    /**
     * Claims activity ids, in the order given, for events with no record yet. An event another delivery
     * claimed in the meantime keeps that delivery's record, which is returned instead.
     */
    async claim(eventIds: string[]): Promise<Map<string, IngestedDoc>> {
      if (eventIds.length === 0) return new Map();
      const first = await counters.nextMany('activities', eventIds.length);
      const at = new Date();
      const docs: IngestedDoc[] = eventIds.map((_id, i) => ({ _id, activityId: first + i, done: false, at }));
      try {
        await ingested.insertMany(docs, { ordered: false, lean: true });
        return new Map(docs.map((doc) => [doc._id, doc]));
      } catch (err) {
        // Duplicates leave the other claims written (unordered); any other failure leaves some missing.
        const stored = await find(eventIds);
        if (stored.size < eventIds.length) throw err;
        return stored;
      }
    },

    /**
     * Marks events fully recorded. Their records are replaced, not updated: FerretDB v1 updates about two
     * documents a millisecond but deletes and inserts hundreds in a few. After a crash in between, a
     * redelivered event finds no record and is recorded again under its stored activity's id
     * (activity-log.store.ts `record`, timelines by id), so nothing is doubled.
     */
    async markDone(records: IngestedRecord[]): Promise<void> {
      if (records.length === 0) return;
      const eventIds = records.map((record) => record.eventId);
      await ingested.deleteMany({ _id: { $in: eventIds } });
      const at = new Date();
      try {
        await ingested.insertMany(
          records.map(({ eventId, activityId }) => ({ _id: eventId, activityId, done: true, at })),
          { ordered: false, lean: true },
        );
      } catch (err) {
        // Another delivery of the same events marked them in the meantime.
        const stored = await find(eventIds);
        if ([...stored.values()].filter((doc) => doc.done !== false).length < eventIds.length) throw err;
      }
    },
  };
}

export type IngestedStore = ReturnType<typeof createIngestedStore>;

/**
 * Removes the records written before `cutoff` (in batches); returns how many went. A record only guards
 * against a second delivery of its event, and the bus keeps an event no longer than the stream's max age:
 * past that (plus a margin) nothing can deliver it again, and the record is dead weight.
 */
export function expireIngested(ingested: Model<IngestedDoc>, cutoff: Date): Promise<number> {
  return deleteManyInBatches(ingested, { at: { $lt: cutoff } });
}
