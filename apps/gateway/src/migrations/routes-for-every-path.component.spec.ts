import { createLogger, runMigrations } from '@gl/service-kit';
import { createTestDatabase, type TestDatabase } from '@gl/testing';
import { GATEWAY_MIGRATIONS } from './index';

const logger = createLogger('gateway-migrations-test', 'silent');

interface RouteRow {
  _id: string;
  sourceType: string;
  sourceId: number;
}

describe('gateway migration 2: a route for every namespace and project', () => {
  let db: TestDatabase;

  beforeEach(async () => {
    db = await createTestDatabase('gateway_migrations');
  });
  afterEach(() => db.drop());

  /** 120 groups and 120 projects as a database from before the claims holds them: no routes at all. */
  async function seedOldShape(): Promise<void> {
    const groups = Array.from({ length: 120 }, (_, i) => ({
      _id: i + 1,
      kind: 'group',
      path: `g${i + 1}`,
      fullPath: `G${i + 1}`,
      fullPathLower: `g${i + 1}`,
    }));
    const projects = Array.from({ length: 120 }, (_, i) => ({
      _id: i + 1,
      path: `p${i + 1}`,
      fullPath: `G1/P${i + 1}`,
      fullPathLower: `g1/p${i + 1}`,
      namespaceId: 1,
    }));
    await db.connection.collection<{ _id: number }>('namespaces').insertMany(groups);
    await db.connection.collection<{ _id: number }>('projects').insertMany(projects);
  }

  it('When the database predates the claims, then every path is claimed by its owner and a second run changes nothing', async () => {
    await seedOldShape();
    // One path already claimed by someone else (a later group on a project's path): left to its holder.
    await db.connection
      .collection<RouteRow>('routes')
      .insertOne({ _id: 'g1/p7', sourceType: 'namespace', sourceId: 999 });

    expect(await runMigrations(db.connection, GATEWAY_MIGRATIONS, { logger })).toEqual({
      applied: [1, 2, 3, 4],
    });

    const routes = db.connection.collection<RouteRow>('routes');
    expect(await routes.countDocuments({ _id: { $in: ['g1', 'g120', 'g1/p1', 'g1/p120'] } })).toBe(4);
    expect(await routes.findOne({ _id: 'g5' })).toEqual({ _id: 'g5', sourceType: 'namespace', sourceId: 5 });
    expect(await routes.findOne({ _id: 'g1/p9' })).toEqual({
      _id: 'g1/p9',
      sourceType: 'project',
      sourceId: 9,
    });
    expect(await routes.findOne({ _id: 'g1/p7' })).toEqual({
      _id: 'g1/p7',
      sourceType: 'namespace',
      sourceId: 999,
    });
    // 240 claims and the Ghost User's namespace (step 3).
    expect(await routes.estimatedDocumentCount()).toBe(241);

    expect(await runMigrations(db.connection, GATEWAY_MIGRATIONS, { logger })).toEqual({ applied: [] });
    expect(await routes.estimatedDocumentCount()).toBe(241);
  });

  it('When step 2 runs again after a crash before it was recorded, then it claims nothing twice', async () => {
    await seedOldShape();
    const step = GATEWAY_MIGRATIONS[1]!;
    await step.up(db.connection, logger);
    await step.up(db.connection, logger);
    expect(await db.connection.collection('routes').estimatedDocumentCount()).toBe(240);
  });
});
