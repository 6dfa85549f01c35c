import { Schema, type Model } from 'mongoose';
import { createTestDatabase, type TestDatabase } from '@gl/testing';
import { countUpTo, matchesMoreThan } from './find-page';

interface Row {
  _id: number;
  group: number;
}

describe('countUpTo and matchesMoreThan', () => {
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
    expect(await countUpTo(rows, { group: 1 }, { _id: -1 }, 10)).toBe(10);
    expect(await countUpTo(rows, { group: 2 }, { _id: -1 }, 10)).toBe(2);
    expect(await countUpTo(rows, { group: 3 }, { _id: 1 }, 10)).toBe(0);
  });

  it('When more than the limit match, then null (the total is not counted)', async () => {
    expect(await countUpTo(rows, { group: 1 }, { _id: -1 }, 9)).toBeNull();
    expect(await countUpTo(rows, {}, { _id: 1 }, 11)).toBeNull();
  });

  it('When asked whether more than a limit match, then only a match past the limit says yes', async () => {
    expect(await matchesMoreThan(rows, { group: 1 }, { _id: 1 }, 9)).toBe(true);
    expect(await matchesMoreThan(rows, { group: 1 }, { _id: -1 }, 10)).toBe(false);
    expect(await matchesMoreThan(rows, { group: 3 }, { _id: 1 }, 0)).toBe(false);
  });
});
