import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import mongoose from 'mongoose';
import { ensureBinaries } from './binaries';
import { freePort, waitForTcp } from './net';

/**
 * The scan report (FERRETDB_SCAN_REPORT, patches 0003 and 0017) must describe the plan SQLite runs. FerretDB
 * keeps up to 100 SQLite connections per database; each compiles statements against the schema it loaded
 * last and notices a newer one only when a statement runs. The report's EXPLAIN never runs, so on a
 * connection idle since before an index was created it showed a table scan that the query itself did not
 * do: the events retention range on `activities` (indexes created at start, its first run a minute later).
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { MongoClient } = mongoose.mongo;

interface Activity {
  _id: number;
  createdAt: Date;
  note?: string;
}

/** Connections loaded with the schema before the index, and connections then kept busy. */
const STALE_CONNECTIONS = 8;
const BUSY_CONNECTIONS = 4;

/** Opens `n` cursors at once: each keeps its SQLite rows, and so one pooled connection, until closed. */
async function holdConnections(
  coll: mongoose.mongo.Collection<Activity>,
  n: number,
): Promise<() => Promise<void>> {
  const cursors = Array.from({ length: n }, () => coll.find({ _id: { $gte: 0 } }).batchSize(1));
  await Promise.all(cursors.map((cursor) => cursor.next()));
  return async () => {
    for (const cursor of cursors) await cursor.close();
  };
}

describe('FerretDB scan report', () => {
  let dir: string;
  let proc: ChildProcess | undefined;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferretdb-scan-report-'));
  });

  afterAll(async () => {
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      const exited = new Promise((done) => proc!.once('exit', done));
      proc.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('When a range is first asked on a pooled connection idle since before its index was created, then no scan is reported', async () => {
    const bin = (await ensureBinaries(ROOT, () => undefined)).ferretdb;
    const report = path.join(dir, 'scans.jsonl');
    const port = await freePort();
    proc = spawn(bin, ['-listen', `127.0.0.1:${port}`, '-data', dir, '-parent-pid', String(process.pid)], {
      stdio: 'ignore',
      env: { ...process.env, FERRETDB_SCAN_REPORT: report },
    });
    await waitForTcp('127.0.0.1', port, 30_000);
    const client = await MongoClient.connect(`mongodb://127.0.0.1:${port}`, { maxPoolSize: 20 });
    try {
      const activities = client.db('events').collection<Activity>('activities');
      const now = Date.now();
      await activities.insertMany(
        Array.from({ length: 20 }, (_, i) => ({ _id: i, createdAt: new Date(now - i * 60_000) })),
      );
      // Several connections load the schema of a table without the createdAt index, then go idle.
      await (
        await holdConnections(activities, STALE_CONNECTIONS)
      )();
      await activities.createIndex({ createdAt: -1, _id: -1 });
      // The field's shape is known from here on, so the range below asks SQLite nothing before its EXPLAIN.
      await activities.findOne({ createdAt: { $gte: new Date(0) } });
      // The connections used since the index are busy: the range's EXPLAIN takes an idle one from before.
      const release = await holdConnections(activities, BUSY_CONNECTIONS);
      const old = await activities
        .find({ createdAt: { $lt: new Date(now - 10 * 60_000 + 1) } }, { projection: { _id: 1 } })
        .limit(10_000)
        .toArray();
      // A real scan, on no index, is still reported.
      await activities.findOne({ note: 'none' });
      await release();

      expect(old.map((doc) => doc._id).sort((a, b) => Number(a) - Number(b))).toEqual([
        10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
      ]);
      const scans = fs.existsSync(report) ? fs.readFileSync(report, 'utf8').trim().split('\n') : [];
      expect(scans.map((line) => (JSON.parse(line) as { filter: string }).filter)).toEqual([
        '{"note": string}',
      ]);
    } finally {
      await client.close();
    }
  }, 600_000);
});
