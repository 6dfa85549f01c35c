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

/** The durables of this process whose oldest unacknowledged events are about to leave the stream. */
export async function consumersBehindWindow(metrics: ServiceMetrics): Promise<string[]> {
  const windows = await metrics.consumerWindows().catch(() => undefined);
  return [...(windows ?? [])].filter(([, window]) => window.behind).map(([durable]) => durable);
}
