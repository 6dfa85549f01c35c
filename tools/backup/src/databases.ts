import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import mongoose from 'mongoose';
import type { CollectionEntry, DatabaseEntry, IndexSpec } from './manifest';
import { openLineWriter, readLines } from './lines';
import type { Progress } from './progress';

type MongoClient = mongoose.mongo.MongoClient;
type Document = mongoose.mongo.Document;
const { EJSON } = mongoose.mongo.BSON;

/**
 * The order databases are read in while services write: consumers before producers (events and
 * notifications only consume; the gateway only produces). A consumer's state is then never newer than
 * its producers': whatever a dumped consumer applied came from an event whose document a producer dumped
 * later still holds, and what it applied after its dump is redelivered (positions are read first) or
 * republished from the producers' outboxes at restore. Alerts and discussions consume each other (alert →
 * incident issue → its iid on the alert): an incident opened during the backup may be restored on one side
 * only. Databases not named here go before the gateway.
 */
const DATABASE_ORDER = ['events', 'notifications', 'registry', 'discussions', 'alerts', 'boards'];
const PRODUCERS_ONLY = ['gateway'];

export function databaseOrder(names: string[], prefix: string): string[] {
  const rankOf = (name: string): number => {
    const service = name.slice(prefix.length);
    if (PRODUCERS_ONLY.includes(service)) return DATABASE_ORDER.length + 1;
    const index = DATABASE_ORDER.indexOf(service);
    return index < 0 ? DATABASE_ORDER.length : index;
  };
  return [...names].sort((a, b) => rankOf(a) - rankOf(b) || a.localeCompare(b));
}

/**
 * The order collections are read in within a database; everything read later is newer:
 * - `ingested` first (events): an event is marked done there only after its activity and timeline
 *   entries are written, so every event the dump calls done is in the timelines read after it;
 * - `timeline_heads` before `timeline_buckets`: a sealed bucket is written after the head that names it,
 *   so every bucket a restored head names is in the dump; buckets written later are rewritten by the same
 *   upsert when their events are redelivered;
 * - `counters` last: every id or iid found in the dump was taken from a counter before its document was
 *   written, so the restored counters are at least as far as any restored id, and no id is handed out twice.
 * The runner's lock (`migrations`, `_id: "lock"`) belongs to a process, not to the data, and is skipped.
 */
const FIRST = ['ingested', 'timeline_heads'];
const LAST = ['counters'];

function rank(name: string): number {
  const first = FIRST.indexOf(name);
  if (first >= 0) return first;
  if (LAST.includes(name)) return FIRST.length + 1;
  return FIRST.length;
}

export function dumpOrder(names: string[]): string[] {
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** Skipped in the dump: per-process state, not data. */
function skipped(collection: string, doc: Document): boolean {
  return collection === 'migrations' && doc._id === 'lock';
}

function indexSpecs(raw: Document[]): IndexSpec[] {
  return raw
    .filter((index) => index.name !== '_id_')
    .map((index) => ({
      name: String(index.name),
      key: index.key as Record<string, unknown>,
      ...(index.unique ? { unique: true } : {}),
      ...(index.sparse ? { sparse: true } : {}),
      ...(index.partialFilterExpression
        ? { partialFilterExpression: index.partialFilterExpression as Record<string, unknown> }
        : {}),
      ...(typeof index.expireAfterSeconds === 'number'
        ? { expireAfterSeconds: index.expireAfterSeconds }
        : {}),
    }));
}

/** The installation's databases: every name starting with the prefix (`gl_` unless MONGO_DB says otherwise). */
export async function databaseNames(client: MongoClient, prefix: string): Promise<string[]> {
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  return databaseOrder(
    databases.map((d) => d.name).filter((name) => name.startsWith(prefix)),
    prefix,
  );
}

/**
 * Writes every collection of every database as canonical Extended JSON (types kept: int32, int64, double,
 * dates), one gzipped file per collection, and reports each collection's count and indexes.
 */
export async function dumpDatabases(
  client: MongoClient,
  names: string[],
  dir: string,
  progress: Progress,
): Promise<{ databases: DatabaseEntry[]; bytes: number }> {
  const databases: DatabaseEntry[] = [];
  let bytes = 0;
  for (const name of names) {
    const db = client.db(name);
    mkdirSync(join(dir, 'db', name), { recursive: true });
    const collectionNames = (await db.listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((c) => !c.startsWith('system.'));
    const collections: CollectionEntry[] = [];
    for (const collectionName of dumpOrder(collectionNames)) {
      const collection = db.collection(collectionName);
      const file = join('db', name, `${collectionName}.jsonl.gz`);
      const writer = openLineWriter(join(dir, file));
      const step = progress.step(`${name}.${collectionName}`, await collection.estimatedDocumentCount());
      let documents = 0;
      for await (const doc of collection.find({}, { batchSize: 1_000 })) {
        if (skipped(collectionName, doc)) continue;
        await writer.write(EJSON.stringify(doc, { relaxed: false }));
        documents += 1;
        step.add(1);
      }
      const size = await writer.close();
      bytes += size;
      step.done(`(${size.toLocaleString('en-US')} bytes)`);
      const indexes = indexSpecs((await collection.listIndexes().toArray()) as Document[]);
      collections.push({ name: collectionName, file, documents, indexes });
    }
    databases.push({ name, collections });
  }
  return { databases, bytes };
}

/** Names of the databases that already hold documents: restore replaces them only when told to. */
export async function nonEmptyDatabases(client: MongoClient, names: string[]): Promise<string[]> {
  const existing = new Set(await databaseNames(client, ''));
  const found: string[] = [];
  for (const name of names) {
    if (!existing.has(name)) continue;
    const collections = await client.db(name).listCollections({}, { nameOnly: true }).toArray();
    for (const c of collections) {
      if ((await client.db(name).collection(c.name).estimatedDocumentCount()) > 0) {
        found.push(name);
        break;
      }
    }
  }
  return found;
}

/** Most documents sent in one insert; also capped by size, so a collection of large notes stays bounded. */
const INSERT_BATCH = 500;
const INSERT_BYTES = 4 * 1024 * 1024;

/** Drops each database, then inserts its documents and builds its indexes as the dump recorded them. */
export async function restoreDatabases(
  client: MongoClient,
  databases: DatabaseEntry[],
  dir: string,
  progress: Progress,
): Promise<number> {
  let total = 0;
  for (const entry of databases) {
    const db = client.db(entry.name);
    await db.dropDatabase();
    for (const c of entry.collections) {
      const collection = db.collection(c.name);
      await db.createCollection(c.name).catch(() => undefined);
      const step = progress.step(`${entry.name}.${c.name}`, c.documents);
      let batch: Document[] = [];
      let batchBytes = 0;
      const flush = async (): Promise<void> => {
        if (batch.length === 0) return;
        await collection.insertMany(batch, { ordered: true });
        step.add(batch.length);
        batch = [];
        batchBytes = 0;
      };
      for await (const line of readLines(join(dir, c.file))) {
        if (line === '') continue;
        batch.push(EJSON.parse(line, { relaxed: false }) as Document);
        batchBytes += line.length;
        if (batch.length >= INSERT_BATCH || batchBytes >= INSERT_BYTES) await flush();
      }
      await flush();
      if (c.indexes.length > 0) {
        await collection.createIndexes(
          c.indexes.map(({ name, key, ...options }) => ({
            name,
            key: key as Record<string, 1 | -1>,
            ...options,
          })),
        );
      }
      total += step.done(c.indexes.length > 0 ? `and ${c.indexes.length} indexes` : '');
    }
  }
  return total;
}

/**
 * Publishes again what the producers published after the backup began (their `outbox` entries, kept 24 h
 * with the envelope): the stream in the dump stops where the backup began, and these are exactly the
 * later events whose documents the dump holds. Each goes with its event id as message id, so one the
 * restored stream already has is dropped by the broker, and consumers are idempotent by event id anyway.
 * `since` is the backup's start less a margin for clocks that differ between hosts.
 */
export async function republishSince(
  client: MongoClient,
  databases: DatabaseEntry[],
  since: Date,
  publish: (subject: string, payload: string, eventId: string) => Promise<void>,
  progress: Progress,
): Promise<number> {
  let total = 0;
  for (const entry of databases) {
    if (!entry.collections.some((c) => c.name === 'outbox')) continue;
    const entries = await client
      .db(entry.name)
      .collection<{ _id: string; payload: string; createdAt: Date }>('outbox')
      .find({ state: 'published', publishedAt: { $gte: since } })
      .toArray();
    if (entries.length === 0) continue;
    entries.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    const step = progress.step(`${entry.name}: events published during the backup`, entries.length);
    for (const event of entries) {
      const { type } = JSON.parse(event.payload) as { type: string };
      await publish(type, event.payload, event._id);
      step.add(1);
    }
    total += step.done();
  }
  return total;
}
