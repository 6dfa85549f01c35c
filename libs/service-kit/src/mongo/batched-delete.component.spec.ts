import { Schema, type Model } from 'mongoose';
import { createTestDatabase, type TestDatabase } from '@gl/testing';
import { deleteManyInBatches } from './batched-delete';

interface Row {
  _id: number;
  group: number;
}

/** Past SQLite's 32,766 bound variables, where one deleteMany fails on FerretDB v1. */
const LARGE = 33_000;

describe('deleteManyInBatches', () => {
  let db: TestDatabase;
  let rows: Model<Row>;

  beforeAll(async () => {
    db = await createTestDatabase('batched_delete');
    rows = db.connection.model<Row>(
      'Row',
      new Schema<Row>({ _id: Number, group: Number }, { versionKey: false }),
      'rows',
    );
  });
  afterAll(() => db.drop());

  it('When a match spans several batches, then exactly the matching documents go', async () => {
    await rows.insertMany(Array.from({ length: 25 }, (_, i) => ({ _id: i + 1, group: i < 23 ? 1 : 2 })));
    expect(await deleteManyInBatches(rows, { group: 1 }, 10)).toBe(23);
    expect((await rows.find({}).lean()).map((r) => r._id)).toEqual([24, 25]);
    expect(await deleteManyInBatches(rows, { group: 1 }, 10)).toBe(0);
  });

  it(`When ${LARGE} documents match, then all are deleted (a single deleteMany fails there on FerretDB)`, async () => {
    const docs = Array.from({ length: LARGE }, (_, i) => ({ _id: 1000 + i, group: 3 }));
    for (let i = 0; i < docs.length; i += 5_000) await rows.insertMany(docs.slice(i, i + 5_000));
    expect(await deleteManyInBatches(rows, { group: 3 })).toBe(LARGE);
    expect(await rows.countDocuments({ group: 3 })).toBe(0);
  }, 120_000);
});
