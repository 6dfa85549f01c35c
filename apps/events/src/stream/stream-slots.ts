import { Schema, type Connection, type Model } from 'mongoose';
import { defineModel, isDuplicateKeyError } from '@gl/service-kit';

/**
 * A user's (or an anonymous address's) open live streams, counted across every events replica: slot
 * `user:<id>#<n>` (n < the limit) is held by one connection until `until`, which the connection pushes
 * forward while it is open. A replica that dies leaves its slots to expire. Each slot is one document read and written by its string `_id`
 * (FerretDB answers those without a scan), and taking one is an insert or a compare-and-set on `until`.
 */
export interface StreamSlotDoc {
  _id: string;
  owner: string;
  until: Date;
}

export function streamSlotsModel(connection: Connection): Model<StreamSlotDoc> {
  return defineModel(
    connection,
    'StreamSlot',
    new Schema<StreamSlotDoc>({ _id: String, owner: String, until: Date }, { versionKey: false }),
    'stream_slots',
  );
}

export interface StreamSlot {
  /** Keeps the slot for another `holdMs`. */
  renew(): Promise<void>;
  release(): Promise<void>;
}

export function createStreamSlots(model: Model<StreamSlotDoc>, holdMs: number) {
  const key = (holder: string, n: number): string => `${holder}#${n}`;

  return {
    /**
     * One of the holder's `limit` slots (`user:<id>`, or `anonymous:<address>`) for connection `owner`, or
     * null when all are held.
     */
    async take(holder: string, limit: number, owner: string): Promise<StreamSlot | null> {
      for (let n = 0; n < limit; n++) {
        const _id = key(holder, n);
        const until = new Date(Date.now() + holdMs);
        let taken = false;
        try {
          await model.create({ _id, owner, until });
          taken = true;
        } catch (err) {
          if (!isDuplicateKeyError(err)) throw err;
          const result = await model.updateOne(
            { _id, until: { $lt: new Date() } },
            { $set: { owner, until } },
          );
          taken = result.modifiedCount === 1;
        }
        if (taken) {
          return {
            async renew() {
              await model.updateOne({ _id, owner }, { $set: { until: new Date(Date.now() + holdMs) } });
            },
            async release() {
              await model.deleteOne({ _id, owner });
            },
          };
        }
      }
      return null;
    },
  };
}

export type StreamSlots = ReturnType<typeof createStreamSlots>;
