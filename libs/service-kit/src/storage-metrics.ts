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

/**
 * How often the database's size is read. On the local database dbStats analyzes every table and walks every
 * page of the file (6–7.5 s for a 2.5 GB events database), so a scrape must not wait for it, nor run it
 * every 15 seconds.
 */
export const DATABASE_SIZE_READ_MS = 10 * 60_000;

/**
 * A reading refreshed in the background at most every `everyMs`: each call answers with the last value at
 * once (an error until the first read has finished) and starts a new read when the last is older.
 */
export function backgroundReading(
  read: () => Promise<number>,
  everyMs: number,
  now: () => number = Date.now,
): () => Promise<number> {
  let value: number | undefined;
  let readAt = -Infinity;
  let reading = false;
  return () => {
    if (!reading && now() - readAt >= everyMs) {
      reading = true;
      readAt = now();
      void read()
        .then(
          (read) => (value = read),
          () => (readAt = -Infinity),
        )
        .finally(() => (reading = false));
    }
    return value === undefined ? Promise.reject(new Error('not read yet')) : Promise.resolve(value);
  };
}

/** Installs how /metrics reads the database's size and the event stream's state (composition root). */
export function watchStorage(
  metrics: ServiceMetrics,
  connection: Connection,
  bus: Bus,
  databaseSizeReadMs = DATABASE_SIZE_READ_MS,
): void {
  metrics.countDatabaseBytes = backgroundReading(() => databaseBytes(connection), databaseSizeReadMs);
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
