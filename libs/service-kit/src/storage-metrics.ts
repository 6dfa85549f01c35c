import type { Connection } from 'mongoose';
import type { Bus } from './bus/bus';
import { readStreamState } from './bus/stream-window';
import type { ServiceMetrics } from './metrics';

/** The database's data and indexes as dbStats reports them (MongoDB's totalSize; FerretDB's sums). */
export async function databaseBytes(connection: Connection): Promise<number> {
  if (!connection.db) throw new Error('not connected');
  const stats = (await connection.db.stats()) as {
    totalSize?: number;
    storageSize?: number;
    indexSize?: number;
    dataSize?: number;
  };
  return stats.totalSize ?? (stats.storageSize ?? stats.dataSize ?? 0) + (stats.indexSize ?? 0);
}

/** Installs how /metrics reads the database's size and the event stream's state (composition root). */
export function watchStorage(metrics: ServiceMetrics, connection: Connection, bus: Bus): void {
  metrics.countDatabaseBytes = () => databaseBytes(connection);
  metrics.streamStateOf = () => readStreamState(bus.jsm);
}

/** Readiness answers at once: a broker that does not answer is the `nats` check's to report. */
const WINDOW_READ_TIMEOUT_MS = 1_000;

/**
 * The durables of this process whose oldest unacknowledged events are about to leave the stream; none when
 * the broker does not answer within a second.
 */
export async function consumersBehindWindow(metrics: ServiceMetrics): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, WINDOW_READ_TIMEOUT_MS, undefined);
  });
  try {
    const windows = await Promise.race([metrics.consumerWindows().catch(() => undefined), timeout]);
    return [...(windows ?? [])].filter(([, window]) => window.behind).map(([durable]) => durable);
  } finally {
    clearTimeout(timer);
  }
}
