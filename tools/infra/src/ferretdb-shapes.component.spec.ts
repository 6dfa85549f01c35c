import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import mongoose from 'mongoose';
import { ensureBinaries } from './binaries';
import { startFerretdb, stopFerretdb, type FerretdbProcess } from './ferretdb-process';

/**
 * Patch 0009: at start FerretDB learns in the background whether any document holds an array (or another
 * irregular value) in each indexed field, which decides whether a filter or sort on it can be answered by
 * SQL alone. A wrong "regular" would silently drop documents whose array holds the value: after a restart,
 * both the documents written before it and those written while the pass runs must still match.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { MongoClient } = mongoose.mongo;
const DOCS = 3_000;

interface Item {
  _id: number;
  group: number;
  tag: string | string[];
  kind: string | string[];
}

describe('FerretDB field shapes learned at start', () => {
  let bin: string;
  let dir: string;
  let server: FerretdbProcess | undefined;

  beforeAll(async () => {
    bin = (await ensureBinaries(ROOT, () => undefined)).ferretdb;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferretdb-shapes-'));
  }, 600_000);

  afterAll(async () => {
    if (server) await stopFerretdb(server, 'SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('When it restarts on documents with arrays in indexed fields, then equality and sorts still find them, also for arrays written during the pass', async () => {
    const first = await startFerretdb(bin, dir);
    const writer = await MongoClient.connect(first.url);
    const items = writer.db('shapes').collection<Item>('items');
    await items.createIndex({ tag: 1 });
    await items.createIndex({ group: 1, kind: 1 });
    const docs = Array.from({ length: DOCS }, (_, i): Item => ({
      _id: i,
      group: 1,
      tag: `t${i % 7}`,
      kind: 'k',
    }));
    docs[DOCS - 1]!.tag = ['t0', 'rare'];
    await items.insertMany(docs);
    await writer.close();
    await stopFerretdb(first, 'SIGTERM');

    server = await startFerretdb(bin, dir);
    const client = await MongoClient.connect(server.url);
    try {
      const again = client
        .db('shapes')
        .collection<{ _id: number; group: number; tag: unknown; kind: unknown }>('items');
      // Written while the start-up pass may still be asking about `kind`.
      await again.insertOne({ _id: DOCS, group: 1, tag: 't1', kind: ['k', 'late'] });

      expect((await again.find({ tag: 'rare' }).toArray()).map((d) => d._id)).toEqual([DOCS - 1]);
      expect(await again.countDocuments({ tag: 't0' })).toBe(Math.ceil(DOCS / 7) + 1);
      expect((await again.find({ group: 1, kind: 'late' }).toArray()).map((d) => d._id)).toEqual([DOCS]);
      const firstBySort = await again
        .find({ tag: { $in: ['rare', 't6'] } })
        .sort({ tag: 1 })
        .limit(1)
        .toArray();
      expect(firstBySort.map((d) => d._id)).toEqual([DOCS - 1]);
      await waitForLog(server, 'Field shapes known');
      expect(await again.countDocuments({ group: 1, kind: 'k' })).toBe(DOCS + 1);
    } finally {
      await client.close();
    }
  }, 120_000);
  it('When an index is created on an empty collection and an array arrives later, then equality still finds it', async () => {
    server ??= await startFerretdb(bin, dir);
    const client = await MongoClient.connect(server.url);
    try {
      const later = client.db('shapes').collection<Item>('later');
      await later.createIndex({ tag: 1 });
      // The shapes of `tag` are learned (regular) on the empty table; the writes below must keep that current.
      await new Promise((resolve) => setTimeout(resolve, 200));
      await later.insertMany(
        Array.from({ length: 500 }, (_, i): Item => ({ _id: i, group: 2, tag: `t${i}`, kind: 'k' })),
      );
      await later.insertOne({ _id: 500, group: 2, tag: ['t1', 'late'], kind: 'k' });
      expect((await later.find({ tag: 'late' }).toArray()).map((d) => d._id)).toEqual([500]);
      expect((await later.find({ tag: 't1' }).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([
        1, 500,
      ]);
    } finally {
      await client.close();
    }
  });
});

async function waitForLog(server: FerretdbProcess, text: string): Promise<void> {
  for (let i = 0; i < 200 && !server.output().includes(text); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(server.output()).toContain(text);
}
