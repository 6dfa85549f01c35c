import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import mongoose from 'mongoose';
import { ensureBinaries } from './binaries';
import { startFerretdb, stopFerretdb, type FerretdbProcess } from './ferretdb-process';

/**
 * Patches 0021 and 0022: a find without a projection answers the stored document as it is, and stored
 * documents are decoded member by member in the order they were written. Both must answer exactly what the
 * slower paths answer: here every document is read without a projection and again with an exclusion of a
 * field no document has (which still goes through upstream's ProjectDocument), and both are compared as
 * canonical Extended JSON, field order and types included, with what was written. (A double -0 is not
 * among them: upstream's sjson stores it as 0, with or without these patches.)
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const { MongoClient, ObjectId, Binary, Long, Double, Int32, Timestamp, BSONRegExp } = mongoose.mongo;
const { EJSON } = mongoose.mongo.BSON;

const canonical = (docs: unknown[]): string => EJSON.stringify(docs, { relaxed: false });

type Stored = { _id: number | string } & Record<string, unknown>;

/** Documents of every shape the decoders meet: nested, arrays of documents, every type FerretDB v1 keeps. */
function documents(): Stored[] {
  return [
    // _id written last: the server moves it first, as MongoDB does.
    { title: 'id last', n: 1, _id: 1 },
    {
      _id: 2,
      int: new Int32(7),
      long: Long.fromString('9007199254740993'),
      double: new Double(2.5),
      wholeDouble: new Double(3),
      bool: true,
      nil: null,
      date: new Date('2026-11-29T12:00:00.123Z'),
      oid: new ObjectId('65a1b2c3d4e5f60718293a4b'),
      bin: new Binary(Buffer.from([0, 1, 2, 255]), 0),
      ts: new Timestamp({ t: 1_700_000_000, i: 3 }),
      regex: new BSONRegExp('^a.c$', 'i'),
      text: 'plain',
    },
    {
      _id: 3,
      author: {
        id: 9,
        username: 'u9',
        name: 'User "Nine"',
        web_url: 'http://x/u9',
        nested: { deep: { deeper: [1, { a: 'b' }] } },
      },
      labels: ['bug', 'needs "review"', 'naïve ✓'],
      emptyDoc: {},
      emptyArray: [],
      arrayOfDocs: [{ z: 1, a: 2 }, { a: 3 }, {}],
    },
    // Non-ASCII keys and values. (Keys with quotes, backslashes or control characters are refused at
    // insert by upstream's sjson, which writes keys unescaped.)
    { _id: 4, ключ: 'значение', 键: ['值'], after: 'x' },
    { _id: 5, nested: { ünïcode: { ok: true }, plain: 1 } },
    { _id: 'string id', order: { b: 1, a: 2, c: { z: 0, y: 1 } } },
  ];
}

describe('FerretDB stored documents as read', () => {
  let bin: string;
  let dir: string;
  let server: FerretdbProcess | undefined;
  let client: InstanceType<typeof MongoClient> | undefined;

  beforeAll(async () => {
    bin = (await ensureBinaries(ROOT, () => undefined)).ferretdb;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ferretdb-decoding-'));
    server = await startFerretdb(bin, dir);
    client = await MongoClient.connect(server.url);
  }, 600_000);

  afterAll(async () => {
    await client?.close();
    if (server) await stopFerretdb(server, 'SIGTERM');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const reads = async (name: string) => {
    const items = client!.db('decoding').collection<Stored>(name);
    const plain = await items
      .find({}, { promoteValues: false, promoteLongs: false })
      .sort({ n: 1 })
      .toArray();
    const projected = await items
      .find({}, { projection: { absentFromEveryDocument: 0 }, promoteValues: false, promoteLongs: false })
      .sort({ n: 1 })
      .toArray();
    return { plain: canonical(plain), projected: canonical(projected) };
  };

  it('When documents of every shape are read without a projection, then they are what was written, as the projected read answers them', async () => {
    const items = client!.db('decoding').collection<Stored>('shapes');
    const written = documents().map((doc, n) => ({ ...doc, n }));
    await items.insertMany(written.map((doc) => ({ ...doc })));

    const { plain, projected } = await reads('shapes');

    expect(plain).toBe(projected);
    const expected = written.map(({ _id, ...rest }) => ({ _id, ...rest }));
    expect(plain).toBe(canonical(expected));
  });

  it('When stored documents are updated (fields added, removed, replaced), then both reads still agree with what the updates made', async () => {
    const items = client!.db('decoding').collection<Stored>('updated');
    await items.insertMany(documents().map((doc, n) => ({ ...doc, n })));
    await items.updateMany({}, { $set: { added: { x: [1, 2] }, 'author.name': 'renamed' } });
    await items.updateOne({ _id: 2 }, { $unset: { text: '', bool: '' } });
    await items.replaceOne({ _id: 3 }, { n: 2, replaced: true, _id: 3 });

    const { plain, projected } = await reads('updated');

    expect(plain).toBe(projected);
    const three = await items.findOne({ _id: 3 });
    expect(Object.keys(three!)).toEqual(['_id', 'n', 'replaced']);
    const two = await items.findOne({ _id: 2 });
    expect(two).not.toHaveProperty('text');
    // `author.name` set on a document without `author` adds it last.
    expect(Object.keys(two!).slice(-3)).toEqual(['n', 'added', 'author']);
  });
});
