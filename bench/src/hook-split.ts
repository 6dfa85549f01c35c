import mongoose from 'mongoose';
import type { Arrival, Sent } from './hook-receivers';
import { percentile, roundTenth } from './stats';

/**
 * Where a delivery's time went, from the hooks service's own log (`web_hook_deliveries`, GitLab's
 * web_hook_logs): queueing (the event's occurredAt until its delivery was queued: the bus, the consumer,
 * the payload's reads from discussions) and sending (queued until it arrived: the sender's passes).
 */
export interface LatencySplit {
  queued: number;
  queueP50Ms: number;
  queueP99Ms: number;
  sendP50Ms: number;
  sendP99Ms: number;
}

const summary = (values: number[]) => {
  values.sort((a, b) => a - b);
  return { p50: roundTenth(percentile(values, 50)), p99: roundTenth(percentile(values, 99)) };
};

export async function latencySplit(
  mongoUrl: string,
  database: string,
  sent: Map<string, Sent>,
  arrivals: Arrival[],
): Promise<LatencySplit> {
  const connection = await mongoose.createConnection(mongoUrl, { dbName: database }).asPromise();
  try {
    const docs = await connection
      .collection('web_hook_deliveries')
      .find({ eventId: { $in: [...sent.keys()] } }, { projection: { eventId: 1, createdAt: 1 } })
      .toArray();
    const queuedAt = new Map(docs.map((d) => [String(d.eventId), new Date(d.createdAt as Date).getTime()]));
    const firstArrival = new Map<string, number>();
    for (const a of arrivals) if (!firstArrival.has(a.eventId)) firstArrival.set(a.eventId, a.at);
    const queue: number[] = [];
    const send: number[] = [];
    for (const [eventId, at] of queuedAt) {
      queue.push(at - sent.get(eventId)!.occurredAtMs);
      const arrived = firstArrival.get(eventId);
      if (arrived !== undefined) send.push(arrived - at);
    }
    const q = summary(queue);
    const s = summary(send);
    return {
      queued: queuedAt.size,
      queueP50Ms: q.p50,
      queueP99Ms: q.p99,
      sendP50Ms: s.p50,
      sendP99Ms: s.p99,
    };
  } finally {
    await connection.close();
  }
}
