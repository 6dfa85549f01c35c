import { Schema, type Model } from 'mongoose';
import { createTestDatabase, type TestDatabase } from '@gl/testing';
import { createCounters } from './counters';
import { isDuplicateKeyError } from './connection';

/**
 * The storage subset every service relies on, proven on the server the tests run against (FerretDB v1
 * locally, MongoDB under Docker): unique indexes, counters, counting and paging.
 */
interface Item {
  _id: number;
  projectId: number;
  name: string;
  position: number;
}

describe('storage subset through mongoose', () => {
  let db: TestDatabase;
  let items: Model<Item>;

  beforeAll(async () => {
    db = await createTestDatabase('storage');
    const schema = new Schema<Item>(
      { _id: Number, projectId: Number, name: String, position: Number },
      { versionKey: false },
    );
    schema.index({ projectId: 1, name: 1 }, { unique: true });
    items = db.connection.model<Item>('Item', schema, 'items');
    await items.init();
  });
  afterAll(() => db.drop());

  it('When a unique key is inserted twice, then the second insert fails with code 11000', async () => {
    await items.create({ _id: 1, projectId: 1, name: 'a', position: 0 });
    const duplicate = await items
      .create({ _id: 2, projectId: 1, name: 'a', position: 1 })
      .catch((err: unknown) => err);
    expect(isDuplicateKeyError(duplicate)).toBe(true);
    // The same name in another project is fine: the index is compound.
    await expect(items.create({ _id: 3, projectId: 2, name: 'a', position: 0 })).resolves.toBeDefined();
  });

  it('When counters are incremented concurrently, then every value is handed out exactly once', async () => {
    const counters = createCounters(db.connection);
    const values = await Promise.all(Array.from({ length: 25 }, () => counters.next('issues:7')));
    expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    await counters.ensureAtLeast('issues:7', 10);
    expect(await counters.next('issues:7')).toBe(26);
    await counters.ensureAtLeast('users', 1);
    expect(await counters.next('users')).toBe(2);
  });

  it('When paging with sort/skip/limit, then pages are disjoint and countDocuments gives the total', async () => {
    await items.insertMany(
      Array.from({ length: 12 }, (_, i) => ({ _id: 100 + i, projectId: 9, name: `n${i}`, position: 11 - i })),
    );
    expect(await items.countDocuments({ projectId: 9 })).toBe(12);
    const page2 = await items.find({ projectId: 9 }).sort({ position: 1 }).skip(5).limit(5).lean();
    expect(page2.map((i) => i.position)).toEqual([5, 6, 7, 8, 9]);
  });

  it('When one document is updated concurrently, then no update is lost', async () => {
    const schema = new Schema(
      { _id: Number, count: Number, a: Number, b: Number, log: [String] },
      { versionKey: false },
    );
    const docs = db.connection.model('Concurrent', schema, 'concurrent');
    await docs.create({ _id: 1, count: 0, log: [] });
    await Promise.all([
      ...Array.from({ length: 30 }, () => docs.updateOne({ _id: 1 }, { $inc: { count: 1 } })),
      ...Array.from({ length: 30 }, (_, i) => docs.updateOne({ _id: 1 }, { $push: { log: `e${i}` } })),
      docs.updateOne({ _id: 1 }, { $set: { a: 1 } }),
      docs.updateOne({ _id: 1 }, { $set: { b: 2 } }),
    ]);
    const doc = await docs.findById(1).lean<{ count: number; a: number; b: number; log: string[] }>();
    expect(doc).toMatchObject({ count: 30, a: 1, b: 2 });
    expect(doc!.log).toHaveLength(30);
  });

  it('When string elements are removed with $pullAll, then only those go (used by the outbox)', async () => {
    const schema = new Schema({ _id: Number, events: [String] }, { versionKey: false });
    const docs = db.connection.model('PullDoc', schema, 'pull_docs');
    await docs.create({ _id: 1, events: ['a', 'b', 'c'] });
    await docs.updateOne({ _id: 1 }, { $pullAll: { events: ['a', 'c'] } });
    expect((await docs.findById(1).lean<{ events: string[] }>())!.events).toEqual(['b']);
    const sized = await docs.updateOne({ _id: 1, events: { $size: 1 } }, { $unset: { events: 1 } });
    expect(sized.modifiedCount).toBe(1);
  });
});
