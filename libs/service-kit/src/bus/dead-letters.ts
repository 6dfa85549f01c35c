import { Schema, type Connection, type Model } from 'mongoose';

/**
 * Events the outbox relay set aside: the broker refused them (too large, bad subject…) on every one of a
 * bounded number of tries, so the relay moved them here and went on with the events behind them. Each
 * entry keeps the envelope exactly as stored, why it was refused and when; `requeueDeadLetters` puts it
 * back into the relay's queue (the `outbox` collection, state `ready`) once the cause is gone, where it is
 * published like any other event, de-duplicated by its id (JetStream msgID).
 */
export const DEAD_LETTERS_COLLECTION = 'outbox_dead_letters';

export interface DeadLetterDoc {
  /** The event id. */
  _id: string;
  type: string;
  /** The envelope as JSON text, as the outbox stored it. */
  payload: string;
  /** The last refusal, e.g. "InvalidArgumentError: 'payload' max_payload size exceeded". */
  reason: string;
  attempts: number;
  /** Where it waited: a document's embedded `_outbox` (model and id), or the `outbox` collection. */
  source: { kind: 'embedded'; model: string; docId: unknown } | { kind: 'outbox' };
  firstFailedAt: Date;
  lastFailedAt: Date;
  setAsideAt: Date;
}

const deadLetterSchema = new Schema<DeadLetterDoc>(
  {
    _id: String,
    type: String,
    payload: String,
    reason: String,
    attempts: Number,
    source: Schema.Types.Mixed,
    firstFailedAt: Date,
    lastFailedAt: Date,
    setAsideAt: Date,
  },
  { versionKey: false },
);

export function deadLetterModel(connection: Connection): Model<DeadLetterDoc> {
  return (
    (connection.models.OutboxDeadLetter as Model<DeadLetterDoc> | undefined) ??
    connection.model<DeadLetterDoc>('OutboxDeadLetter', deadLetterSchema, DEAD_LETTERS_COLLECTION)
  );
}

export interface DeadLetterSummary {
  id: string;
  type: string;
  bytes: number;
  reason: string;
  attempts: number;
  source: DeadLetterDoc['source'];
  firstFailedAt: string;
  lastFailedAt: string;
  setAsideAt: string;
}

/** Set-aside events, oldest first. */
export async function listDeadLetters(connection: Connection, limit = 1_000): Promise<DeadLetterSummary[]> {
  const docs = await deadLetterModel(connection)
    .find()
    .sort({ setAsideAt: 1 })
    .limit(limit)
    .lean<DeadLetterDoc[]>();
  return docs.map((doc) => ({
    id: doc._id,
    type: doc.type,
    bytes: Buffer.byteLength(doc.payload),
    reason: doc.reason,
    attempts: doc.attempts,
    source: doc.source,
    firstFailedAt: doc.firstFailedAt.toISOString(),
    lastFailedAt: doc.lastFailedAt.toISOString(),
    setAsideAt: doc.setAsideAt.toISOString(),
  }));
}

export interface RequeueResult {
  /** Back in the relay's queue. */
  requeued: string[];
  /** Found published meanwhile (a relay that stopped between setting aside and clearing its copy): dropped. */
  alreadyPublished: string[];
  /** Asked for by id but not set aside. */
  missing: string[];
}

/**
 * Puts set-aside events back into the relay's queue: the service's relay publishes them on its next pass
 * (within a second) through the same path as every event, and sets them aside again if the broker still
 * refuses them. `ids` undefined: all of them.
 */
export async function requeueDeadLetters(connection: Connection, ids?: string[]): Promise<RequeueResult> {
  const deadLetters = deadLetterModel(connection);
  const queue = connection.collection('outbox');
  const docs = await deadLetters
    .find(ids ? { _id: { $in: ids } } : {})
    .sort({ setAsideAt: 1 })
    .lean<DeadLetterDoc[]>();
  const result: RequeueResult = {
    requeued: [],
    alreadyPublished: [],
    missing: (ids ?? []).filter((id) => !docs.some((doc) => doc._id === id)),
  };
  for (const doc of docs) {
    const queued = await queue.findOne<{ state?: string }>({ _id: doc._id as never });
    if (queued?.state === 'published') {
      result.alreadyPublished.push(doc._id);
    } else {
      await queue.updateOne(
        { _id: doc._id as never },
        {
          $set: { payload: doc.payload, state: 'ready', createdAt: new Date() },
          $unset: { attempts: 1, nextAttemptAt: 1, lastError: 1, firstFailedAt: 1, check: 1 },
        },
        { upsert: true },
      );
      result.requeued.push(doc._id);
    }
    await deadLetters.deleteOne({ _id: doc._id });
  }
  return result;
}
