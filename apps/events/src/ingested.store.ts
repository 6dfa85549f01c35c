import type { Model } from 'mongoose';
import { deleteManyInBatches } from '@gl/service-kit';
import type { IngestedDoc } from './events.models';

/** What the recorder wrote for an event: its activity event's id, or null when it records none. */
export interface IngestedRecord {
  eventId: string;
  activityId: number | null;
}

/**
 * `ingested`: one record per domain event the activity log applied, keyed by the event id, written once
 * the event is fully recorded, so a redelivery is recognised without touching the log. (Records with
 * `done: false` are claims older builds wrote before recording; such an event is recorded again.)
 */
export function createIngestedStore(ingested: Model<IngestedDoc>) {
  /** By `_id`, which FerretDB answers without scanning. */
  const find = async (eventIds: string[]): Promise<Map<string, IngestedDoc>> => {
    if (eventIds.length === 0) return new Map();
    const found = await ingested.find({ _id: { $in: eventIds } }).lean<IngestedDoc[]>();
    return new Map(found.map((doc) => [doc._id, doc]));
  };

  return {
    find,

    /**
     * Marks events fully recorded. Their records are replaced, not updated: FerretDB v1 updates about two
     * documents a millisecond but deletes and inserts hundreds in a few. After a crash in between, a
     * redelivered event finds no record and is recorded again, finding its stored activity by event id
     * (activity-log.store.ts `record`), so nothing is doubled.
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

/**
 * Removes the records written before `cutoff` (in batches); returns how many went. A record only guards
 * against a second delivery of its event, and the bus keeps an event no longer than the stream's max age:
 * past that (plus a margin) nothing can deliver it again, and the record is dead weight.
 */
export function expireIngested(ingested: Model<IngestedDoc>, cutoff: Date): Promise<number> {
  return deleteManyInBatches(ingested, { at: { $lt: cutoff } });
}
