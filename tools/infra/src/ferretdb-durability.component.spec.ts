import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import mongoose from 'mongoose';
import { ensureBinaries } from './binaries';
import { freePort, waitForTcp } from './net';

/**
 * Our FerretDB runs SQLite with synchronous=normal (tools/ferretdb/main.go): a commit reaches the WAL file
 * without waiting for the disk. The promise that keeps is the one the system makes, that an acknowledged
 * write survives a crash of any one process: here the database process itself is killed with SIGKILL right
 * after a burst of acknowledged writes, restarted on the same files, and must still have every one.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { MongoClient } = mongoose.mongo;
const CLIENTS = 8;
const INSERTS_PER_CLIENT = 250;
const INCREMENTS_PER_CLIENT = 50;

interface Server {
  proc: ChildProcess;
  url: string;
}

async function start(bin: string, dir: string): Promise<Server> {
  const port = await freePort();
  const proc = spawn(
    bin,
    ['-listen', `127.0.0.1:${port}`, '-data', dir, '-parent-pid', String(process.pid)],
    {
      stdio: 'ignore',
    },
  );
  await waitForTcp('127.0.0.1', port, 30_000);
  return { proc, url: `mongodb://127.0.0.1:${port}` };
}

async function stop(server: Server, signal: NodeJS.Signals): Promise<void> {
  if (server.proc.exitCode !== null || server.proc.signalCode !== null) return;
  const exited = new Promise((done) => server.proc.once('exit', done));
  server.proc.kill(signal);
  await exited;
}

describe('FerretDB (synchronous=normal) killed right after acknowledged writes', () => {
  let bin: string;
  let dir: string;
  let restarted: Server | undefined;

  beforeAll(async () => {
    bin = (await ensureBinaries(ROOT, () => undefined)).ferretdb;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferretdb-durability-'));
  }, 600_000);

  afterAll(async () => {
    if (restarted) await stop(restarted, 'SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('When it is SIGKILLed and restarted on its files, then every acknowledged insert and update is there', async () => {
    const first = await start(bin, dir);
    const writer = await MongoClient.connect(first.url, { maxPoolSize: CLIENTS });
    const db = writer.db('durability');
    await db.collection('counters').insertOne({ _id: 'n' as never, n: 0 });
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let i = 0; i < INSERTS_PER_CLIENT; i++) {
          await db.collection('docs').insertOne({ client, i });
          if (i < INCREMENTS_PER_CLIENT) {
            await db.collection('counters').updateOne({ _id: 'n' as never }, { $inc: { n: 1 } });
          }
        }
      }),
    );
    await stop(first, 'SIGKILL');
    await writer.close(true);

    restarted = await start(bin, dir);
    const reader = await MongoClient.connect(restarted.url);
    try {
      const again = reader.db('durability');
      expect(await again.collection('docs').countDocuments()).toBe(CLIENTS * INSERTS_PER_CLIENT);
      expect(await again.collection('counters').findOne({ _id: 'n' as never })).toMatchObject({
        n: CLIENTS * INCREMENTS_PER_CLIENT,
      });
    } finally {
      await reader.close();
    }
  }, 120_000);
});
