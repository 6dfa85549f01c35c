import { randomUUID } from 'node:crypto';
import { EVENT_TYPES, type EventEnvelope, type InternalContext } from '@gl/contracts';
import { createTestDatabase, testPrincipal, type TestDatabase } from '@gl/testing';
import { UnavailableError } from '../errors';
import { createProjectionRevisions, revisionOf } from './projection-revisions';

const ID = EVENT_TYPES.identity;

function event(type: string, data: Record<string, unknown>): EventEnvelope {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'gateway',
    correlationId: null,
    actor: null,
    projectId: null,
    groupId: null,
    data,
  };
}

const member = (userId: number, revision?: number) =>
  event(ID.memberRemoved, {
    sourceType: 'project',
    sourceId: 9,
    userId,
    accessLevel: 30,
    expiresAt: null,
    ...(revision === undefined ? {} : { revision }),
  });
const project = (revision?: number) =>
  event(ID.projectUpdated, {
    projectId: 9,
    name: 'p',
    path: 'p',
    fullPath: 'g/p',
    namespaceId: 1,
    ancestorGroupIds: [1],
    visibility: 'private',
    ...(revision === undefined ? {} : { revision }),
  });

const context = (userId: number | null, user: number, visibility: number): InternalContext => ({
  v: 1,
  requestId: 'r',
  exp: Date.now() + 60_000,
  tier: 'ultimate',
  externalUrl: 'http://localhost',
  principal: userId === null ? null : testPrincipal({ id: userId }),
  namespace: null,
  identityRevision: { user, visibility },
});

describe('projection revisions', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase('projection_revisions');
  });
  afterAll(() => db.drop());

  it('When an identity event carries a revision, then it advances its user or visibility; others nothing', () => {
    expect(revisionOf(member(5, 12))).toEqual({ key: 'user:5', revision: 12 });
    expect(revisionOf(project(13))).toEqual({ key: 'visibility', revision: 13 });
    expect(revisionOf(member(5))).toBeNull();
    expect(revisionOf(event('gl.discussions.issue.opened', { revision: 3 }))).toBeNull();
  });

  it('When the projection applied the revisions, then a request needing them passes; per user, not overall', async () => {
    const revisions = createProjectionRevisions(db.connection, { maxWaitMs: 0 });
    await revisions.applied(member(5, 20));
    await revisions.applied(project(21));
    expect(revisions.known(5)).toEqual({ user: 20, visibility: 21 });
    await expect(revisions.caughtUp(context(5, 20, 21))).resolves.toBeUndefined();
    // User 6 never changed: they do not wait for user 5's revisions.
    await expect(revisions.caughtUp(context(6, 0, 21))).resolves.toBeUndefined();
    await expect(revisions.caughtUp(context(null, 0, 21))).resolves.toBeUndefined();
    await expect(revisions.caughtUp(context(5, 22, 21))).rejects.toBeInstanceOf(UnavailableError);
    await expect(revisions.caughtUp(context(6, 0, 22))).rejects.toBeInstanceOf(UnavailableError);
  });

  it('When another process recorded the revision, then this one reads it instead of refusing', async () => {
    const writer = createProjectionRevisions(db.connection);
    const reader = createProjectionRevisions(db.connection, { maxWaitMs: 0 });
    await writer.applied(member(7, 30));
    expect(reader.known(7).user).toBe(0);
    await expect(reader.caughtUp(context(7, 30, 0))).resolves.toBeUndefined();
    expect(reader.known(7).user).toBe(30);
  });

  it('When the revision is applied while a request waits, then the request goes on', async () => {
    const revisions = createProjectionRevisions(db.connection, { maxWaitMs: 10_000 });
    const waiting = revisions.caughtUp(context(8, 40, 0));
    await revisions.applied(member(8, 40));
    await expect(waiting).resolves.toBeUndefined();
  });

  it('When a late event carries an older revision, then the record never goes back', async () => {
    const revisions = createProjectionRevisions(db.connection);
    await revisions.applied(member(9, 50));
    await revisions.applied(member(9, 45));
    expect(revisions.known(9).user).toBe(50);
    const stored = await db.connection
      .collection<{ _id: string; value: number }>('projection_revisions')
      .findOne({ _id: 'user:9' });
    expect(stored?.value).toBe(50);
  });
});
