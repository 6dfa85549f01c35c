import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';

/**
 * Sequences for ids and per-project iids: `findOneAndUpdate` with `$inc` + upsert on one counters
 * document per key is atomic on MongoDB and FerretDB alike, and needs no transaction.
 */
interface CounterDoc {
  _id: string;
  value: number;
}

const counterSchema = new Schema<CounterDoc>({ _id: String, value: Number }, { versionKey: false });

export interface Counters {
  next(key: string): Promise<number>;
  /** Takes `n` consecutive values in one write and returns the first (batches claim their ids at once). */
  nextMany(key: string, n: number): Promise<number>;
  /** Moves a counter forward to at least `value` (used when seeding fixed ids such as root = 1). */
  ensureAtLeast(key: string, value: number): Promise<void>;
}

export function createCounters(connection: Connection): Counters {
  const model: Model<CounterDoc> =
    (connection.models.Counter as Model<CounterDoc> | undefined) ??
    connection.model<CounterDoc>('Counter', counterSchema, 'counters');
  return {
    async next(key) {
      const doc = await model
        .findOneAndUpdate({ _id: key }, { $inc: { value: 1 } }, { upsert: true, new: true })
        .lean<CounterDoc>();
      return doc.value;
    },
    async nextMany(key, n) {
      const doc = await model
        .findOneAndUpdate({ _id: key }, { $inc: { value: n } }, { upsert: true, new: true })
        .lean<CounterDoc>();
      return doc.value - n + 1;
    },
    async ensureAtLeast(key, value) {
      await model.updateOne({ _id: key }, { $max: { value } }, { upsert: true });
    },
  };
}
