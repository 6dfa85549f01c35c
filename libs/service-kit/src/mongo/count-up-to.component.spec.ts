import { Schema, type Model } from 'mongoose';
import { createTestDatabase, type TestDatabase } from '@gl/testing';
import { createBeyondLimitMemo } from './beyond-limit-memo';
import { countUpTo } from './find-page';

interface Row {
  _id: number;
  group: number;
}

describe('countUpTo', () => {
  let db: TestDatabase;
  let rows: Model<Row>;

  beforeAll(async () => {
    db = await createTestDatabase('count_up_to');
    rows = db.connection.model<Row>(
      'Row',
      new Schema<Row>({ _id: Number, group: Number }, { versionKey: false }),
      'rows',
    );
    await rows.insertMany(Array.from({ length: 12 }, (_, i) => ({ _id: i + 1, group: i < 10 ? 1 : 2 })));
  });
  afterAll(() => db.drop());

  it('When no more than the limit match, then the exact count comes back', async () => {
    expect(await countUpTo(rows, { group: 1 }, 10)).toBe(10);
    expect(await countUpTo(rows, { group: 2 }, 10)).toBe(2);
    expect(await countUpTo(rows, { group: 3 }, 10)).toBe(0);
  });

  it('When more than the limit match, then null (the total is not counted)', async () => {
    expect(await countUpTo(rows, { group: 1 }, 9)).toBeNull();
    expect(await countUpTo(rows, {}, 11)).toBeNull();
  });

  it('When a memo is given, then a list found past the limit is not counted again', async () => {
    const memo = createBeyondLimitMemo();
    expect(await countUpTo(rows, { group: 1 }, 9, memo)).toBeNull();
    await rows.deleteMany({ _id: { $in: [1, 2] } });
    // Still taken to be past the limit (for the memo's minute), though 8 rows are left.
    expect(await countUpTo(rows, { group: 1 }, 9, memo)).toBeNull();
    expect(await countUpTo(rows, { group: 1 }, 9)).toBe(8);
  });
});
