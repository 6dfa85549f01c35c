import { createLogger, runMigrations } from '@gl/service-kit';
import { createTestDatabase, type TestDatabase } from '@gl/testing';
import { withReach } from '../activity-log.store';
import { EVERYONE } from '../activity-reach';
import { createEventsModels, type ActivityDoc } from '../events.models';
import { activityDoc } from '../testing/activities';
import { EVENTS_MIGRATIONS } from './index';
import { REPLACED_INDEXES, TIMELINE_COLLECTIONS } from './one-activity-log';

const logger = createLogger('events-migrations-test', 'silent');

describe('events migrations', () => {
  let db: TestDatabase;

  beforeEach(async () => {
    db = await createTestDatabase('events-migrations');
  });
  afterEach(async () => {
    await db.drop();
  });

  it('When a database still has {projectId, targetType, action, _id}, then it is replaced by {projectId, targetType, _id} and the events stay', async () => {
    const raw = db.connection.collection<Record<string, unknown> & { _id: number }>('activities');
    await raw.createIndex({ projectId: 1, targetType: 1, action: 1, _id: -1 });
    await raw.insertMany([
      { _id: 1, sourceEventId: 'a', projectId: 4, targetType: 'Issue', action: 'created' },
      { _id: 2, sourceEventId: 'b', projectId: 4, targetType: 'Issue', action: 'closed' },
    ]);
    createEventsModels(db.connection);

    const upToThree = EVENTS_MIGRATIONS.slice(0, 3);
    expect(await runMigrations(db.connection, upToThree, { logger })).toEqual({ applied: [1, 2, 3] });

    const names = (await raw.indexes()).map((index) => index.name);
    expect(names).toContain('projectId_1_targetType_1__id_-1');
    expect(names).not.toContain('projectId_1_targetType_1_action_1__id_-1');
    expect(await raw.countDocuments({ projectId: 4, targetType: 'Issue' })).toBe(2);
  });

  it('When the step runs on a database that never had the old index, then it only ensures the new one', async () => {
    createEventsModels(db.connection);
    await EVENTS_MIGRATIONS[1]!.up(db.connection, logger);
    await EVENTS_MIGRATIONS[1]!.up(db.connection, logger);
    const names = (await db.connection.collection('activities').indexes()).map((index) => index.name);
    expect(names).toContain('projectId_1_targetType_1__id_-1');
  });

  it('When ingestion records were written without a time, then each gets one and keeps its event id, activity id and state', async () => {
    const raw = db.connection.collection<{
      _id: string;
      activityId: number | null;
      done?: boolean;
      at?: Date;
    }>('ingested');
    const legacy = Array.from({ length: 2_500 }, (_, i) => ({
      _id: `event-${i}`,
      activityId: i % 3 === 0 ? null : i,
      ...(i % 2 === 0 ? { done: true } : {}),
    }));
    await raw.insertMany(legacy);
    const stampedBefore = new Date(Date.now() - 1_000);
    await raw.insertOne({ _id: 'recent', activityId: 9, done: true, at: stampedBefore });
    createEventsModels(db.connection);

    await runMigrations(db.connection, EVENTS_MIGRATIONS, { logger });

    const after = await raw.find({}).sort({ _id: 1 }).toArray();
    expect(after).toHaveLength(2_501);
    expect(after.filter((doc) => !(doc.at instanceof Date))).toEqual([]);
    expect(after.find((doc) => doc._id === 'recent')?.at).toEqual(stampedBefore);
    const byId = new Map(after.map((doc) => [doc._id, doc]));
    for (const doc of legacy) {
      expect(byId.get(doc._id)).toMatchObject({
        activityId: doc.activityId,
        ...('done' in doc && { done: doc.done }),
      });
      if (!('done' in doc)) expect(byId.get(doc._id)).not.toHaveProperty('done');
    }
  });

  it('When a database still has the bucket timelines, then they go, the replaced indexes go, and every event says who reads it', async () => {
    const raw = db.connection.collection<ActivityDoc>('activities');
    await raw.createIndex({ projectId: 1, targetType: 1, _id: -1 });
    await raw.createIndex({ projectId: 1, action: 1, _id: -1 });
    await raw.createIndex({ authorId: 1, projectId: 1, _id: 1 });
    const confidential = { confidential: true, authorId: 3, assigneeIds: [4] };
    const legacy = Array.from({ length: 4_500 }, (_, i) =>
      activityDoc(i + 1, i % 3 === 0 ? { audience: confidential } : {}),
    );
    await raw.insertMany(legacy);
    for (const name of TIMELINE_COLLECTIONS) {
      await db.connection.collection(name).insertOne({ _id: 'project:7' as never, count: 1 });
    }
    createEventsModels(db.connection);

    await runMigrations(db.connection, EVENTS_MIGRATIONS, { logger });
    await EVENTS_MIGRATIONS[3]!.up(db.connection, logger);

    const collections = (await db.connection.db!.listCollections().toArray()).map((c) => c.name);
    expect(collections.filter((name) => TIMELINE_COLLECTIONS.includes(name))).toEqual([]);
    const names = (await raw.indexes()).map((index) => index.name);
    expect(names.filter((name) => REPLACED_INDEXES.includes(name!))).toEqual([]);
    const after = await raw.find({}).sort({ _id: 1 }).toArray();
    expect(after).toHaveLength(legacy.length);
    // Events every reader class reads keep no reach (that is what its absence means); the others get theirs.
    const expected = legacy.map((doc) => {
      const { reach, readers } = withReach(doc);
      return reach === EVERYONE && readers === null ? { _id: doc._id } : { _id: doc._id, reach, readers };
    });
    expect(after.map(({ _id, reach, readers }) => ({ _id, reach, readers }))).toEqual(expected);
    expect(expected.filter((doc) => 'reach' in doc)).toHaveLength(legacy.length / 3);
    expect(after[0]).toMatchObject({ reach: 0, readers: ',3,4,', targetTitle: 'issue 1' });
  });
});
