import type { Model } from 'mongoose';
import type { EmbeddedDrainDeps, RelayPass } from './embedded-drain';
import type { OutboxEntry } from './outbox-documents';

/**
 * The relay's pass over the `outbox` collection: events of deletes, which cannot ride on their document.
 * Entries still `pending` after staleMs belong to a delete that was cut short: the document decides (gone
 * → ready, still there → dropped). Ready entries go out oldest first, each deleted document's in order.
 */
export function createQueueDrain(deps: EmbeddedDrainDeps & { entries: Model<OutboxEntry>; staleMs: number }) {
  const { entries, models, logger, tryPublish, nextFailure, setAside } = deps;
  const BATCH = deps.batch;

  async function resolveStalePending(): Promise<void> {
    const stale = await entries
      .find({ state: 'pending', createdAt: { $lt: new Date(Date.now() - deps.staleMs) } })
      .limit(BATCH)
      .lean<OutboxEntry[]>();
    for (const entry of stale) {
      const model = entry.check ? models.get(entry.check.model) : undefined;
      if (!model) continue;
      const stillThere = await model.exists({ _id: entry.check!.docId });
      if (stillThere) await entries.deleteOne({ _id: entry._id, state: 'pending' });
      else await entries.updateOne({ _id: entry._id, state: 'pending' }, { $set: { state: 'ready' } });
    }
  }

  async function drainReady(): Promise<RelayPass> {
    const ready = await entries
      .find({ state: 'ready' })
      .sort({ createdAt: 1 })
      .limit(BATCH)
      .lean<OutboxEntry[]>();
    const now = Date.now();
    // A deleted document's events (its carried ones, then the delete) keep their order: once one of them
    // waits, the rest of that document's wait too. Entries of other documents go on.
    const waiting = new Set<string>();
    let published = 0;
    for (const entry of ready) {
      const key = entry.check ? `${entry.check.model}:${String(entry.check.docId)}` : entry._id;
      if (waiting.has(key)) continue;
      if (entry.nextAttemptAt && entry.nextAttemptAt.getTime() > now) {
        waiting.add(key);
        continue;
      }
      const outcome = await tryPublish(entry.payload);
      if (outcome.ok) {
        await entries.updateOne(
          { _id: entry._id },
          {
            $set: { state: 'published', publishedAt: new Date() },
            ...(entry.attempts !== undefined
              ? { $unset: { attempts: 1, lastError: 1, firstFailedAt: 1, nextAttemptAt: 1 } }
              : {}),
          },
        );
        published++;
        continue;
      }
      waiting.add(key);
      const failure = nextFailure(
        { attempts: entry.attempts ?? 0, firstFailedAt: entry.firstFailedAt ?? null },
        new Date(),
      );
      if (failure.exhausted) {
        await setAside(entry._id, entry.payload, outcome, failure, { kind: 'outbox' }, new Date());
        await entries.deleteOne({ _id: entry._id, state: 'ready' });
      } else {
        await entries.updateOne(
          { _id: entry._id },
          {
            $set: {
              attempts: failure.attempts,
              lastError: outcome.reason,
              firstFailedAt: failure.firstFailedAt,
              nextAttemptAt: failure.retryAt,
            },
          },
        );
        logger.warn(
          { eventId: entry._id, attempts: failure.attempts, reason: outcome.reason },
          'outbox relay: the broker refused an event; will try again',
        );
      }
    }
    return { published, fullBatch: ready.length === BATCH };
  }

  return {
    async drain(): Promise<RelayPass> {
      await resolveStalePending();
      return drainReady();
    },
  };
}
