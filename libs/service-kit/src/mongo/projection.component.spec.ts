import { Schema, type Model } from 'mongoose';
import { createTestDatabase, useHarness } from '@gl/testing';
import { markDestroyed, projectIdentity } from './projection';

interface Doc {
  _id: number;
  name: string;
  destroyed?: boolean;
}

const at = (iso: string) => ({ occurredAt: iso });
const T1 = '2026-01-01T00:00:01.000Z';
const T2 = '2026-01-01T00:00:02.000Z';
const T3 = '2026-01-01T00:00:03.000Z';

describe('projectIdentity: the one out-of-order guard of identity projections', () => {
  const db = useHarness(async () => {
    const database = await createTestDatabase('projection');
    return { ...database, close: () => database.drop() };
  });
  let model: Model<Doc>;
  let nextId = 1;
  beforeAll(() => {
    model = db.connection.model<Doc>(
      'Projected',
      new Schema<Doc>({ _id: Number, name: String, destroyed: Boolean }, { versionKey: false }),
      'projected',
    );
  });
  const read = (id: number) => model.findById(id).lean<Doc & { occurredAt?: string }>();

  it('When an older event is redelivered after a newer one, then the newer state stays', async () => {
    const id = nextId++;
    expect(await projectIdentity(model, id, at(T2), { name: 'new' })).toBe(true);
    expect(await projectIdentity(model, id, at(T1), { name: 'old' })).toBe(false);
    expect(await read(id)).toMatchObject({ name: 'new', occurredAt: T2 });
  });

  it('When events arrive in order or the same event twice, then each one applies', async () => {
    const id = nextId++;
    await projectIdentity(model, id, at(T1), { name: 'first' });
    expect(await projectIdentity(model, id, at(T2), { name: 'second' })).toBe(true);
    expect(await projectIdentity(model, id, at(T2), { name: 'second' })).toBe(true);
    expect(await read(id)).toMatchObject({ name: 'second', occurredAt: T2 });
  });

  it('When the record was written without a stamp, then any event overwrites it', async () => {
    const id = nextId++;
    await model.create({ _id: id, name: 'unstamped' });
    expect(await projectIdentity(model, id, at(T1), { name: 'stamped' })).toBe(true);
    expect(await read(id)).toMatchObject({ name: 'stamped', occurredAt: T1 });
  });

  it('When a namespace was destroyed, then a late created/updated never brings it back', async () => {
    const id = nextId++;
    await projectIdentity(model, id, at(T1), { name: 'alive' }, { unlessDestroyed: true });
    await markDestroyed(model, id);
    expect(await projectIdentity(model, id, at(T3), { name: 'again' }, { unlessDestroyed: true })).toBe(
      false,
    );
    expect(await read(id)).toMatchObject({ name: 'alive', destroyed: true });
  });
});
