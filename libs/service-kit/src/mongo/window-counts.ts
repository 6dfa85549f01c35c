import type { Connection } from 'mongoose';
import { defineModel, documentSchema } from './models';

interface WindowCountDoc {
  /** `<what>:<window>:<who>`: one counter per caller and fixed window, as Rack::Attack and
   * Gitlab::ApplicationRateLimiter key their cache. */
  _id: string;
  count: number;
  /** The window's end: past it the counter is dead weight (FerretDB v1 has no TTL index). */
  expiresAt: Date;
}

export interface WindowCounts {
  /** Counts one request in the window; resolves the window's count with it. */
  increment(key: string, expiresAt: Date): Promise<number>;
}

/**
 * Request counts every replica of a service shares (one collection in its database): one atomic `$inc`
 * with upsert per counted request, so two replicas see one count. Windows that ended are removed at most
 * once a minute per process. The gateway's Rack::Attack-style throttles and the services' application
 * rate limits (rate-limiter.ts) count here.
 */
export function createWindowCounts(
  connection: Connection,
  collection: string,
  modelName: string,
): WindowCounts {
  const schema = documentSchema<WindowCountDoc>({ _id: String, count: Number, expiresAt: Date });
  schema.index({ expiresAt: 1 });
  const counts = defineModel(connection, modelName, schema, collection);
  let sweptAt = 0;

  return {
    async increment(key, expiresAt) {
      const doc = await counts
        .findOneAndUpdate(
          { _id: key },
          { $inc: { count: 1 }, $setOnInsert: { expiresAt } },
          { upsert: true, new: true },
        )
        .lean<WindowCountDoc>();
      const now = Date.now();
      if (now - sweptAt > 60_000) {
        sweptAt = now;
        void counts.deleteMany({ expiresAt: { $lt: new Date(now) } }).catch(() => undefined);
      }
      return doc.count;
    },
  };
}
