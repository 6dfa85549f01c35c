import mongoose, { type Connection } from 'mongoose';

/**
 * Upstream FerretDB v1 applied an update as read, modify in memory, write back, without isolation, so
 * concurrent updates of one document lost writes; our build locks each collection around read-modify-write
 * commands (tools/ferretdb/patches/0005-atomic-read-modify-write.patch, proven from two processes with
 * pools by atomic-writes.component.spec.ts), which is what makes pools and replicas safe. Its SQLite store
 * has 100 connections per database, and an open cursor keeps one: 8 per process keeps every service's
 * replicas well below that. (Before patch 0006 an update command held a connection per statement until it
 * ended, and pools of 8 made FerretDB stop answering under concurrent writes.) Real MongoDB keeps the
 * driver's default pool.
 */
const FERRETDB_POOL_SIZE = 8;

// Mongoose records `new Error().stack` at every query's execution, only to say where a query ran first when
// one is executed twice; with --enable-source-maps each such stack is mapped through the bundle's source map,
// which cost the alerts service 0.3 ms per ingested alert (CPU profile under `npm run bench`).
mongoose.set('skipOriginalStackTraces', true);

export interface MongoConnectOptions {
  /** Called once with what was detected, for the start-up log. */
  onServerDetected?: (server: { ferretdb: boolean; version: string; maxPoolSize: number | null }) => void;
}

/**
 * `GL_DB_COMMAND_TRACE=1`: every command this process sends is written to stderr as one JSON line when it
 * ends (its name, collection, the shape of its filter and the round trip in ms, the time it ended), to count, name and time
 * the round trips a request makes. Off by default: the driver's command events cost a copy of every reply.
 */
const TRACE_COMMANDS = process.env.GL_DB_COMMAND_TRACE === '1';

/** The filter's keys and operators, without values: what a query is, not whom it is for. */
function shapeOf(value: unknown, depth = 0): unknown {
  if (depth > 3 || value === null || typeof value !== 'object') return typeof value;
  if (Array.isArray(value)) return value.length > 0 ? [shapeOf(value[0], depth + 1)] : [];
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shapeOf(v, depth + 1)]));
}

function traceCommands(connection: Connection): void {
  const started = new Map<number, Record<string, unknown>>();
  const client = connection.getClient();
  client.on('commandStarted', (event) => {
    const command = event.command as Record<string, unknown>;
    const filter = command.filter ?? command.query ?? command.pipeline ?? command.updates ?? command.deletes;
    started.set(event.requestId, {
      dbCommand: event.commandName,
      db: event.databaseName,
      collection: command[event.commandName],
      shape: shapeOf(filter),
      sort: shapeOf(command.sort),
    });
  });
  const ended = (event: { requestId: number; duration: number }, ok: boolean) => {
    const line = started.get(event.requestId);
    if (!line) return;
    started.delete(event.requestId);
    process.stderr.write(`${JSON.stringify({ ...line, ms: event.duration, ok, at: Date.now() })}\n`);
  };
  client.on('commandSucceeded', (event) => ended(event, true));
  client.on('commandFailed', (event) => ended(event, false));
}

function open(url: string, dbName: string, maxPoolSize?: number): Connection {
  const connection = mongoose.createConnection(url, {
    dbName,
    serverSelectionTimeoutMS: 10_000,
    // FerretDB v1 has no sessions or transactions; retryable writes would be refused there.
    retryWrites: false,
    autoIndex: true,
    ...(maxPoolSize ? { maxPoolSize, minPoolSize: 1 } : {}),
    ...(TRACE_COMMANDS ? { monitorCommands: true } : {}),
  });
  if (TRACE_COMMANDS) traceCommands(connection);
  return connection;
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
  // Start with FerretDB's pool (fine on both servers), then widen it on MongoDB.
  const first = open(url, dbName, FERRETDB_POOL_SIZE);
  await first.asPromise();
  const info = (await first.db!.admin().command({ buildInfo: 1 })) as {
    version?: string;
    ferretdbVersion?: string;
  };
  const ferretdb = info.ferretdbVersion !== undefined;
  options.onServerDetected?.({
    ferretdb,
    version: info.ferretdbVersion ?? info.version ?? 'unknown',
    maxPoolSize: ferretdb ? FERRETDB_POOL_SIZE : null,
  });
  if (ferretdb) return first;
  await first.close();
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
