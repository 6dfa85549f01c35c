import { createLogger, runMigrations } from '@gl/service-kit';
import { createTestDatabase, type TestDatabase } from '@gl/testing';
import { createEventsModels } from '../events.models';
import { EVENTS_MIGRATIONS } from './index';

const logger = createLogger('events-migrations-test', 'silent');

describe('events migrations: the target_type index', () => {
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

    expect(await runMigrations(db.connection, EVENTS_MIGRATIONS, { logger })).toEqual({ applied: [1, 2] });

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
});
