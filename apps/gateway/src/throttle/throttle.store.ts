import type { Connection } from 'mongoose';
import { defineModel, documentSchema } from '@gl/service-kit';

interface ThrottleCountDoc {
  /** `<throttle>:<window>:<who>`: one counter per caller and fixed window, as Rack::Attack keys its cache. */
  _id: string;
  count: number;
  /** The window's end: past it the counter is dead weight (FerretDB v1 has no TTL index). */
  expiresAt: Date;
}

function throttleCountSchema() {
  const schema = documentSchema<ThrottleCountDoc>({ _id: String, count: Number, expiresAt: Date });
  schema.index({ expiresAt: 1 });
  return schema;
}

/**
 * The request counts every gateway replica shares (`throttle_counts` in the gateway's database): one
 * atomic `$inc` with upsert per counted request, so two replicas see one count. Windows that ended are
 * removed at most once a minute per process.
 */
export function createThrottleStore(connection: Connection) {
  const counts = defineModel(connection, 'ThrottleCount', throttleCountSchema(), 'throttle_counts');
  let sweptAt = 0;

  return {
    /** Counts one request in the window; resolves the window's count with it. */
    async increment(key: string, expiresAt: Date): Promise<number> {
      const doc = await counts
        .findOneAndUpdate(
          { _id: key },
          { $inc: { count: 1 }, $setOnInsert: { expiresAt } },
          { upsert: true, new: true },
        )
        .lean<ThrottleCountDoc>();
      const now = Date.now();
      if (now - sweptAt > 60_000) {
        sweptAt = now;
        void counts.deleteMany({ expiresAt: { $lt: new Date(now) } }).catch(() => undefined);
      }
      return doc.count;
    },
  };
}

export type ThrottleStore = ReturnType<typeof createThrottleStore>;
