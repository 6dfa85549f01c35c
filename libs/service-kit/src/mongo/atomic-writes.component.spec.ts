import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import mongoose from 'mongoose';
import { testEnv } from '@gl/testing';

/**
 * Single-document writes must be atomic whoever sends them: services run with connection pools and at
 * several replicas, and counters, versions, leases and unique keys rely on it. Upstream FerretDB v1 lost
 * concurrent updates (50 `$inc` from two processes left 14); our build locks each collection around
 * read-modify-write commands (tools/ferretdb/patches/0005-atomic-read-modify-write.patch).
 */

const ROOT = resolve(__dirname, '..', '..', '..', '..');
const PER_PROCESS = 50;
/** Statements in one update command: more than FerretDB's 100 SQLite connections (patch 0006). */
const BIG_COMMAND = 150;

/** One client process: a pool of 8 connections sending `PER_PROCESS` of each write at once. */
const CHILD = `
const { MongoClient } = require('mongoose').mongo;
(async () => {
  const [url, dbName, tag, n] = process.argv.slice(1);
  const client = await MongoClient.connect(url, { maxPoolSize: 8 });
  const db = client.db(dbName);
  const times = (k, f) => Promise.all(Array.from({ length: Number(k) }, (_, i) => f(i)));
  const out = {};
  await times(n, () => db.collection('counters').updateOne({ _id: 'inc' }, { $inc: { n: 1 } }));
  await times(n, (i) => db.collection('lists').updateOne({ _id: 'push' }, { $push: { items: tag + i } }));
  out.sequence = await times(n, async () =>
    (await db.collection('counters').findOneAndUpdate({ _id: 'seq' }, { $inc: { n: 1 } }, { upsert: true, returnDocument: 'after' })).n);
  out.casWins = (await times(20, () =>
    db.collection('versions').updateOne({ _id: 'doc', version: 0 }, { $set: { version: 1, winner: tag } }))).reduce((s, r) => s + r.modifiedCount, 0);
  out.uniqueWins = (await times(20, (i) =>
    db.collection('keys').insertOne({ _id: tag + i, key: 'same' }).then(() => 1, (e) => { if (e.code !== 11000) throw e; return 0; }))).reduce((s, w) => s + w, 0);
  // Update commands of many statements on existing documents, two at once per process.
  const statements = Array.from({ length: ${BIG_COMMAND} }, (_, i) => ({ updateOne: { filter: { _id: i }, update: { $inc: { n: 1 } } } }));
  out.bigModified = (await times(2, () => db.collection('many').bulkWrite(statements, { ordered: false }))).reduce((s, r) => s + r.modifiedCount, 0);
  await client.close();
  process.stdout.write(JSON.stringify(out));
})().catch((e) => { process.stderr.write(String(e && e.stack || e)); process.exit(1); });
`;

interface ChildResult {
  sequence: number[];
  bigModified: number;
  casWins: number;
  uniqueWins: number;
}

function runClientProcess(url: string, dbName: string, tag: string): Promise<ChildResult> {
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      ['-e', CHILD, url, dbName, tag, String(PER_PROCESS)],
      { cwd: ROOT, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`client ${tag} failed: ${stderr || err.message}`));
        else resolvePromise(JSON.parse(stdout) as ChildResult);
      },
    );
  });
}

const { MongoClient } = mongoose.mongo;
type Client = InstanceType<typeof MongoClient>;
type Db = ReturnType<Client['db']>;

describe('single-document writes from two processes with connection pools', () => {
  let client: Client;
  let db: Db;
  let results: ChildResult[];

  beforeAll(async () => {
    const url = testEnv('mongoUrl');
    const dbName = `atomic_${randomUUID().slice(0, 8)}`;
    client = await MongoClient.connect(url);
    db = client.db(dbName);
    await db.collection('counters').insertOne({ _id: 'inc' as never, n: 0 });
    await db.collection('lists').insertOne({ _id: 'push' as never, items: [] });
    await db.collection('versions').insertOne({ _id: 'doc' as never, version: 0 });
    await db.collection('keys').createIndex({ key: 1 }, { unique: true });
    await db
      .collection('many')
      .insertMany(Array.from({ length: BIG_COMMAND }, (_, i) => ({ _id: i as never, n: 0 })));
    results = await Promise.all([runClientProcess(url, dbName, 'a'), runClientProcess(url, dbName, 'b')]);
  }, 90_000);

  afterAll(async () => {
    await db.dropDatabase();
    await client.close();
  });

  it('When both increment one counter at once, then no increment is lost', async () => {
    expect(await db.collection('counters').findOne({ _id: 'inc' as never })).toMatchObject({
      n: 2 * PER_PROCESS,
    });
  });

  it('When both push onto one array at once, then every element is kept', async () => {
    const doc = await db.collection<{ items: string[] }>('lists').findOne({ _id: 'push' as never });
    const expected = ['a', 'b'].flatMap((tag) => Array.from({ length: PER_PROCESS }, (_, i) => `${tag}${i}`));
    expect([...(doc?.items ?? [])].sort()).toEqual(expected.sort());
  });

  it('When both take numbers from one sequence with findAndModify, then each number is handed out once', () => {
    const handedOut = results.flatMap((r) => r.sequence).sort((x, y) => x - y);
    expect(handedOut).toEqual(Array.from({ length: 2 * PER_PROCESS }, (_, i) => i + 1));
  });

  it('When both compare-and-set one version, then exactly one attempt wins', async () => {
    expect(results.reduce((sum, r) => sum + r.casWins, 0)).toBe(1);
    expect(await db.collection('versions').findOne({ _id: 'doc' as never })).toMatchObject({ version: 1 });
  });

  it('When both send update commands of 150 statements on existing documents, then every statement applies', async () => {
    expect(results.reduce((sum, r) => sum + r.bigModified, 0)).toBe(4 * BIG_COMMAND);
    const docs = await db.collection<{ n: number }>('many').find().toArray();
    expect(docs.map((d) => d.n)).toEqual(Array.from({ length: BIG_COMMAND }, () => 4));
  });

  it('When both insert the same unique key, then exactly one insert succeeds', async () => {
    expect(results.reduce((sum, r) => sum + r.uniqueWins, 0)).toBe(1);
    expect(await db.collection('keys').countDocuments({ key: 'same' })).toBe(1);
  });
});
