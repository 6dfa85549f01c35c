import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import type { EventEnvelope } from '@gl/contracts';
import type { Bus } from './bus';
import type { OutboxEntry } from './outbox-documents';
import { failureReason, isMessageRejection } from './publish-errors';

/**
 * Publishes again the events acknowledged within the window, oldest first: a broker that crashed may have
 * lost messages it acknowledged but had not yet synced to disk, and JetStream drops the duplicates (msgID).
 */
export async function replayPublished(
  entries: Model<OutboxEntry>,
  bus: Bus,
  logger: Logger,
  windowMs: number,
): Promise<number> {
  const recent = await entries
    .find({ state: 'published', publishedAt: { $gte: new Date(Date.now() - windowMs) } })
    .sort({ createdAt: 1 })
    .lean<OutboxEntry[]>();
  for (const entry of recent) {
    try {
      await bus.publish(JSON.parse(entry.payload) as EventEnvelope);
    } catch (err) {
      // Refused now (a restarted broker with a smaller max_payload): it was acknowledged once; the rest
      // of the window still needs replaying.
      if (!isMessageRejection(err)) throw err;
      logger.warn({ eventId: entry._id, reason: failureReason(err) }, 'outbox replay: event refused');
    }
  }
  if (recent.length > 0) logger.info({ count: recent.length }, 'outbox: replayed recent events');
  return recent.length;
}
