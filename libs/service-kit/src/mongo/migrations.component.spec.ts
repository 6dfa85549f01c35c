import { Schema, type Connection } from 'mongoose';
import { createTestDatabase, testEnv, type TestDatabase } from '@gl/testing';
import { createLogger } from '../logging';
import { connectMongo } from './connection';
import { MIGRATIONS_COLLECTION, declaredIndexesMigration, runMigrations, type Migration } from './migrations';

const logger = createLogger('migrations-test', 'silent');

/** Steps that count their runs and leave a mark in the database. */
function countingSteps(n: number, delayMs = 0): { steps: Migration[]; runs: number[] } {
  const runs = Array.from({ length: n }, () => 0);
  const steps = runs.map((_, index): Migration => ({
    version: index + 1,
    name: `step ${index + 1}`,
    async up(connection) {
      runs[index]!++;
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      await connection
        .collection<{ _id: string }>('marks')
        .updateOne({ _id: `m${index + 1}` }, { $inc: { n: 1 } }, { upsert: true });
    },
  }));
  return { steps, runs };
}

async function recordedVersions(connection: Connection): Promise<number[]> {
  const docs = await connection
    .collection<{ _id: string; version?: number }>(MIGRATIONS_COLLECTION)
    .find({ _id: { $in: ['v1', 'v2', 'v3', 'v4', 'lock'] } })
    .toArray();
  return docs.map((doc) => doc.version ?? -1).sort();
}

describe('runMigrations', () => {
  let db: TestDatabase;
  let other: Connection;

  beforeEach(async () => {
    db = await createTestDatabase('migrations');
    other = await connectMongo(testEnv('mongoUrl'), db.name);
  });
  afterEach(async () => {
    await other.close();
    await db.drop();
  });

  it('When a database has no steps recorded, then every step runs once, in order, and is recorded; a second start runs none', async () => {
    const order: number[] = [];
    const { steps, runs } = countingSteps(3);
    const traced = steps.map((step) => ({
      ...step,
      up: async (c: Connection, l: typeof logger) => {
        order.push(step.version);
        await step.up(c, l);
      },
    }));
    expect(await runMigrations(db.connection, traced, { logger })).toEqual({ applied: [1, 2, 3] });
    expect(order).toEqual([1, 2, 3]);
    expect(await recordedVersions(db.connection)).toEqual([1, 2, 3]);

    expect(await runMigrations(db.connection, traced, { logger })).toEqual({ applied: [] });
    expect(runs).toEqual([1, 1, 1]);
  });

  it('When a release adds a step, then only the new one runs', async () => {
    const { steps, runs } = countingSteps(3);
    await runMigrations(db.connection, steps.slice(0, 2), { logger });
    expect(await runMigrations(db.connection, steps, { logger })).toEqual({ applied: [3] });
    expect(runs).toEqual([1, 1, 1]);
  });

  it('When two processes start at once, then each step runs exactly once and both go on once it is done', async () => {
    const { steps, runs } = countingSteps(3, 150);
    const [a, b] = await Promise.all([
      runMigrations(db.connection, steps, { logger, owner: 'a', pollMs: 50 }),
      runMigrations(other, steps, { logger, owner: 'b', pollMs: 50 }),
    ]);
    expect(runs).toEqual([1, 1, 1]);
    expect([...a.applied, ...b.applied].sort()).toEqual([1, 2, 3]);
    const marks = await db.connection.collection<{ _id: string; n: number }>('marks').find({}).toArray();
    expect(marks.map((m) => m.n)).toEqual([1, 1, 1]);
    // The lock is gone once the work is done.
    expect(await recordedVersions(db.connection)).toEqual([1, 2, 3]);
  });

  it('When a process died holding the lock, then the next one takes it over once the lease has run out', async () => {
    await db.connection
      .collection<{ _id: string; owner: string; until: Date }>(MIGRATIONS_COLLECTION)
      .insertOne({ _id: 'lock', owner: 'dead', until: new Date(Date.now() - 1_000) });
    const { steps, runs } = countingSteps(1);
    expect(await runMigrations(db.connection, steps, { logger, pollMs: 50 })).toEqual({ applied: [1] });
    expect(runs).toEqual([1]);
  });

  it('When a live process holds the lock past the wait limit, then start-up fails instead of running beside it', async () => {
    await db.connection
      .collection<{ _id: string; owner: string; until: Date }>(MIGRATIONS_COLLECTION)
      .insertOne({ _id: 'lock', owner: 'busy', until: new Date(Date.now() + 60_000) });
    const { steps, runs } = countingSteps(1);
    await expect(runMigrations(db.connection, steps, { logger, pollMs: 50, waitMs: 300 })).rejects.toThrow(
      /lock held by another process/,
    );
    expect(runs).toEqual([0]);
  });

  it('When a step fails, then it is not recorded, the lock is released and the next start runs it again', async () => {
    const { steps, runs } = countingSteps(2);
    let fail = true;
    const flaky: Migration = {
      ...steps[1]!,
      up: async (c, l) => {
        if (fail) throw new Error('boom');
        await steps[1]!.up(c, l);
      },
    };
    await expect(runMigrations(db.connection, [steps[0]!, flaky], { logger })).rejects.toThrow('boom');
    expect(await recordedVersions(db.connection)).toEqual([1]);
    fail = false;
    expect(await runMigrations(other, [steps[0]!, flaky], { logger })).toEqual({ applied: [2] });
    expect(runs).toEqual([1, 1]);
  });

  it('When versions are not 1, 2, 3… in order, then nothing runs', async () => {
    const { steps, runs } = countingSteps(2);
    await expect(runMigrations(db.connection, [steps[1]!, steps[0]!], { logger })).rejects.toThrow(
      /expected 1/,
    );
    expect(runs).toEqual([0, 0]);
  });

  it('When step 1 runs, then every declared index exists, built by mongoose or, where autoIndex is off, by the step', async () => {
    const built = new Schema({ key: String }, { versionKey: false });
    built.index({ key: 1 }, { unique: true });
    const manual = new Schema({ at: Date }, { versionKey: false, autoIndex: false });
    manual.index({ at: 1 });
    db.connection.model('Built', built, 'built');
    db.connection.model('Manual', manual, 'manual');
    expect(await runMigrations(db.connection, [declaredIndexesMigration()], { logger })).toEqual({
      applied: [1],
    });
    const names = async (collection: string): Promise<string[]> =>
      (await db.connection.collection(collection).listIndexes().toArray())
        .map((i) => String((i as { name: unknown }).name))
        .sort();
    expect(await names('built')).toEqual(['_id_', 'key_1']);
    expect(await names('manual')).toEqual(['_id_', 'at_1']);
  });
});
