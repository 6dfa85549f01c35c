import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import mongoose from 'mongoose';
import { ensureBinaries } from './binaries';
import { startFerretdb as start, stopFerretdb as stop, type FerretdbProcess } from './ferretdb-process';

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

describe('FerretDB (synchronous=normal) killed right after acknowledged writes', () => {
  let bin: string;
  let dir: string;
  let restarted: FerretdbProcess | undefined;

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
