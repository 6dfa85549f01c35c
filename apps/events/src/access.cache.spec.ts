import { testPrincipal } from '@gl/testing';
import type { EventsModels } from './events.models';
import { ProjectionVersion } from '@gl/service-kit';
import { createAccessCache } from './access.cache';

/** A stand-in for the projection models that counts reads (find → select → lean → exec chains). */
function countingModels() {
  const reads = { projects: 0, groups: 0, members: 0 };
  const chain = (name: keyof typeof reads, rows: unknown[]) => ({
    find: () => {
      const query = {
        select: () => query,
        lean: () => query,
        exec: () => {
          reads[name] += 1;
          return Promise.resolve(rows);
        },
        then: (resolve: (value: unknown) => unknown, reject: (err: unknown) => unknown) =>
          query.exec().then(resolve, reject),
      };
      return query;
    },
  });
  const models = {
    projects: chain('projects', [{ _id: 1, visibility: 'public', ancestorGroupIds: [], destroyed: false }]),
    groups: chain('groups', []),
    members: chain('members', [{ sourceType: 'project', sourceId: 1, userId: 5, expiresAt: null }]),
  } as unknown as EventsModels;
  return { models, reads };
}

describe('access cache', () => {
  it('When nothing changed, then the projections are read once for many requests', async () => {
    const { models, reads } = countingModels();
    const cache = createAccessCache(models, new ProjectionVersion());
    await Promise.all([cache.rows(), cache.rows(), cache.memberRows(5), cache.memberRows(5)]);
    await cache.rows();
    expect(reads).toEqual({ projects: 1, groups: 1, members: 1 });
  });

  it('When this process changes a projection, then the next request reads them again', async () => {
    const { models, reads } = countingModels();
    const version = new ProjectionVersion();
    const cache = createAccessCache(models, version);
    await cache.rows();
    await cache.memberRows(5);
    version.bump();
    await cache.rows();
    await cache.memberRows(5);
    expect(reads).toEqual({ projects: 2, groups: 2, members: 2 });
  });

  it('When the time to live has passed, then they are read again (changes by other replicas)', async () => {
    const { models, reads } = countingModels();
    const cache = createAccessCache(models, new ProjectionVersion(), null, 0);
    await cache.rows();
    await new Promise((resolve) => setTimeout(resolve, 2));
    await cache.rows();
    expect(reads.projects).toBe(2);
  });

  it("When a request needs newer identity revisions than an entry was read at, then it is read again (the caller's rows only)", async () => {
    const { models, reads } = countingModels();
    const known = { user: 3, visibility: 7 };
    const cache = createAccessCache(models, new ProjectionVersion(), { known: () => known });
    const alice = testPrincipal({ id: 5 });
    await cache.at({ principal: alice, identityRevision: { user: 3, visibility: 7 } }).memberRows(5);
    await cache.at({ principal: alice, identityRevision: { user: 3, visibility: 7 } }).rows();
    expect(reads).toEqual({ projects: 1, groups: 1, members: 1 });
    // The projection applied Alice's removal (revision 4) after her rows were read.
    known.user = 4;
    const after = cache.at({ principal: alice, identityRevision: { user: 4, visibility: 7 } });
    await after.memberRows(5);
    await after.rows();
    expect(reads).toEqual({ projects: 1, groups: 1, members: 2 });
    // Someone else's request does not force Alice's rows; a visibility change forces the project rows.
    known.visibility = 8;
    const bob = cache.at({
      principal: testPrincipal({ id: 6 }),
      identityRevision: { user: 0, visibility: 8 },
    });
    await bob.memberRows(5);
    await bob.rows();
    expect(reads).toEqual({ projects: 2, groups: 2, members: 2 });
  });
});
