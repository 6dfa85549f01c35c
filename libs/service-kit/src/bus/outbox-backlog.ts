import type { Model } from 'mongoose';
import { OUTBOX_PENDING_FIELD, type AnyModel, type OutboxEntry } from './outbox-documents';

/**
 * Events written and not yet published, for the `outbox_backlog` gauge: queued entries still pending or
 * ready, and the documents that carry their events. Both counts are served by an index (the queue's
 * `state`, each registered model's pending flag).
 */
export async function countBacklog(entries: Model<OutboxEntry>, models: Iterable<AnyModel>): Promise<number> {
  let backlog = await entries.countDocuments({ state: { $in: ['pending', 'ready'] } });
  for (const model of models) backlog += await model.countDocuments({ [OUTBOX_PENDING_FIELD]: true });
  return backlog;
}
