import { GHOST_USER, createLogger } from '@gl/service-kit';
import { createTestDatabase, type TestDatabase } from '@gl/testing';
import { ghostUser } from './ghost-user';

const logger = createLogger('gateway-ghost-migration-test', 'silent');

interface Row {
  _id: number | string;
  [key: string]: unknown;
}

describe('gateway migration 3: the Ghost User', () => {
  let db: TestDatabase;

  beforeEach(async () => {
    db = await createTestDatabase('gateway_ghost_migration');
  });
  afterEach(() => db.drop());

  const rows = (name: string) => db.connection.collection<Row>(name);

  it('When the catalogue is empty, then the ghost gets the username ghost, its namespace, route and address', async () => {
    await ghostUser.up(db.connection, logger);

    const ghost = await rows('users').findOne({ _id: GHOST_USER.id });
    expect(ghost).toMatchObject({
      username: 'ghost',
      usernameLower: 'ghost',
      name: 'Ghost User',
      email: 'ghost@example.com',
      state: 'active',
      isAdmin: false,
      passwordHash: null,
    });
    const namespace = await rows('namespaces').findOne({ _id: ghost!.namespaceId as number });
    expect(namespace).toMatchObject({ kind: 'user', path: 'ghost', ownerId: GHOST_USER.id });
    expect(await rows('routes').findOne({ _id: 'ghost' })).toEqual({
      _id: 'ghost',
      sourceType: 'namespace',
      sourceId: namespace!._id,
    });
    expect(
      await rows('user_emails').countDocuments({ userId: GHOST_USER.id, emailLower: 'ghost@example.com' }),
    ).toBe(1);
  });

  it('When a human already holds the username and address ghost, then the ghost takes ghost1 (Uniquify) and leaves theirs alone', async () => {
    await rows('users').insertOne({
      _id: 7,
      username: 'Ghost',
      usernameLower: 'ghost',
      email: 'ghost@example.com',
      emailLower: 'ghost@example.com',
    });
    await rows('routes').insertOne({ _id: 'ghost', sourceType: 'namespace', sourceId: 70 });

    await ghostUser.up(db.connection, logger);

    expect(await rows('users').findOne({ _id: GHOST_USER.id })).toMatchObject({
      username: 'ghost1',
      email: 'ghost1@example.com',
    });
    expect(await rows('routes').findOne({ _id: 'ghost' })).toMatchObject({ sourceId: 70 });
    expect(await rows('routes').findOne({ _id: 'ghost1' })).toMatchObject({ sourceType: 'namespace' });
  });

  it('When a run stopped after the namespace, then the next one finishes with that namespace and no second one', async () => {
    await ghostUser.up(db.connection, logger);
    const first = await rows('users').findOne({ _id: GHOST_USER.id });
    // As if the run had stopped before the user was written.
    await rows('users').deleteOne({ _id: GHOST_USER.id });

    await ghostUser.up(db.connection, logger);

    expect(await rows('namespaces').countDocuments({ ownerId: GHOST_USER.id })).toBe(1);
    expect(await rows('user_emails').countDocuments({ userId: GHOST_USER.id })).toBe(1);
    expect(await rows('users').findOne({ _id: GHOST_USER.id })).toMatchObject({
      username: 'ghost',
      namespaceId: first!.namespaceId,
    });
  });
});
