import mongoose, { type Connection } from 'mongoose';

/**
 * FerretDB v1 applies an update as read, modify in memory, write back, without isolation: concurrent
 * updates of one document lose writes (measured here: 30 concurrent `$inc` gave 11, 30 `$push` kept 1,
 * a compare-and-set had 3 winners). Each service owns its database from one process, so using a single
 * connection there serializes every operation of that process and restores atomicity. Real MongoDB
 * (docker-compose, production) keeps a normal pool.
 */
const FERRETDB_POOL_SIZE = 1;

export interface MongoConnectOptions {
  /** Called once with what was detected, for the start-up log. */
  onServerDetected?: (server: { ferretdb: boolean; version: string; maxPoolSize: number | null }) => void;
}

function open(url: string, dbName: string, maxPoolSize?: number): Connection {
  return mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 10_000,
    // FerretDB v1 has no sessions or transactions; retryable writes would be refused there.
    retryWrites: false,
    autoIndex: true,
    ...(maxPoolSize ? { maxPoolSize, minPoolSize: 1 } : {}),
  });
}

/**
 * Each service owns one database on the shared server (`createConnection`, never the global mongoose
 * connection), so a service cannot reach another's collections by accident.
 */
export async function connectMongo(
  url: string,
  dbName: string,
  options: MongoConnectOptions = {},
): Promise<Connection> {
  // Start serialized (safe on both servers), then widen the pool only if this is real MongoDB.
  const serialized = open(url, dbName, FERRETDB_POOL_SIZE);
  await serialized.asPromise();
  const info = (await serialized.db!.admin().command({ buildInfo: 1 })) as {
    version?: string;
    ferretdbVersion?: string;
  };
  const ferretdb = info.ferretdbVersion !== undefined;
  options.onServerDetected?.({
    ferretdb,
    version: info.ferretdbVersion ?? info.version ?? 'unknown',
    maxPoolSize: ferretdb ? FERRETDB_POOL_SIZE : null,
  });
  if (ferretdb) return serialized;
  await serialized.close();
  const pooled = open(url, dbName);
  await pooled.asPromise();
  return pooled;
}

export async function mongoReady(connection: Connection): Promise<boolean> {
  if (connection.readyState !== mongoose.ConnectionStates.connected || !connection.db) return false;
  try {
    await connection.db.admin().ping();
    return true;
  } catch {
    return false;
  }
}

/**
 * Unique-index violation. Inserts report code 11000 (FerretDB without keyValue, so match on the code);
 * FerretDB's findAndModify reports the same SQLite constraint as an InternalError (code 1), which turned
 * a rename to a taken title into a 500.
 */
export function isDuplicateKeyError(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code === 11000) return true;
  return code === 1 && typeof message === 'string' && message.includes('UNIQUE constraint failed');
}
