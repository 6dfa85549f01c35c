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
 * The order collections are read in while services write; everything read later is newer:
 * - `ingested` first (events): an event is marked done there only after its activity is written, so
 *   every event the dump calls done is in the `activities` read after it;
 * - `counters` of every database last, after the stream's end is fixed (dumpDatabases' `beforeCounters`):
 *   an id is taken from its counter before its document is written and its event published, so the
 *   restored counters are past every id in the databases and in the stream, and none is handed out twice.
 * The runner's lock (`migrations`, `_id: "lock"`) belongs to a process, not to the data, and is skipped.
 */
const FIRST = ['ingested'];
export const COUNTERS = 'counters';

function rank(name: string): number {
  const first = FIRST.indexOf(name);
  if (first >= 0) return first;
  if (name === COUNTERS) return FIRST.length + 1;
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

/**
 * Databases of services that only consume go first: any order is consistent (the stream's end is fixed
 * after all of them), but a producer read closer to that end leaves fewer events of writes made while the
 * backup ran without their documents.
 */
const CONSUMERS_ONLY = ['events', 'notifications'];
/**
 * Read before the write fence: the activity log takes no client writes (its API only reads), it is built
 * from the stream, and the consumer's position read before it puts back whatever came later. So the
 * largest database costs the fence nothing; notifications, whose settings clients write, waits for it.
 */
const BEFORE_THE_FENCE = ['events'];

export function readBeforeTheFence(name: string, prefix: string): boolean {
  return BEFORE_THE_FENCE.includes(name.slice(prefix.length));
}

/** The installation's databases: every name starting with the prefix (`gl_` unless MONGO_DB says otherwise). */
export async function databaseNames(client: MongoClient, prefix: string): Promise<string[]> {
  const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
  const rank = (name: string): number => (CONSUMERS_ONLY.includes(name.slice(prefix.length)) ? 0 : 1);
  return databases
    .map((d) => d.name)
    .filter((name) => name.startsWith(prefix))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Writes every collection of every database as canonical Extended JSON (types kept: int32, int64, double,
 * dates), one gzipped file per collection, and reports each collection's count and indexes. The counters
 * of all databases come last, after `beforeCounters` (see COUNTERS); the databases clients write come
 * after `beforeFenced` (see BEFORE_THE_FENCE).
 */
export async function dumpDatabases(
  client: MongoClient,
  names: string[],
  dir: string,
  progress: Progress,
  hooks: {
    /** Before the first database `fenced` names (the write fence goes up there). */
    fenced: (name: string) => boolean;
    beforeFenced: () => Promise<void>;
    beforeCounters: () => Promise<void>;
  },
): Promise<{ databases: DatabaseEntry[]; bytes: number }> {
  const databases: DatabaseEntry[] = [];
  const counters: DatabaseEntry[] = [];
  let bytes = 0;
  const dumpCollection = async (name: string, collectionName: string): Promise<CollectionEntry> => {
    const collection = client.db(name).collection(collectionName);
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
    return { name: collectionName, file, documents, indexes };
  };
  let fenced = false;
  for (const name of names) {
    if (!fenced && hooks.fenced(name)) {
      fenced = true;
      await hooks.beforeFenced();
    }
    mkdirSync(join(dir, 'db', name), { recursive: true });
    const collectionNames = (await client.db(name).listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((c) => !c.startsWith('system.'));
    const entry: DatabaseEntry = { name, collections: [] };
    for (const collectionName of dumpOrder(collectionNames)) {
      if (collectionName === COUNTERS) counters.push(entry);
      else entry.collections.push(await dumpCollection(name, collectionName));
    }
    databases.push(entry);
  }
  if (!fenced) await hooks.beforeFenced();
  await hooks.beforeCounters();
  for (const entry of counters) entry.collections.push(await dumpCollection(entry.name, COUNTERS));
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
