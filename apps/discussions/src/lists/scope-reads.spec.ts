import type { DiscussionsModels } from '../discussions.models';
import { ProjectionVersion } from '@gl/service-kit';
import { createScopeReads } from './scope-reads';

/** Models whose `find` counts its calls and answers `rows`. */
function countingModels(rows: unknown[] = []) {
  const calls = { projects: 0, members: 0 };
  const model = (name: keyof typeof calls) => ({
    find: () => {
      calls[name] += 1;
      return { lean: () => ({ exec: () => Promise.resolve(rows) }) };
    },
  });
  const models = { projects: model('projects'), members: model('members') } as unknown as Pick<
    DiscussionsModels,
    'projects' | 'members'
  >;
  return { models, calls };
}

/** Revisions known applied here: what caughtUp left after the request's revisions were reached. */
function knownRevisions(visibility: number, user: number) {
  return { known: () => ({ visibility, user }) };
}

const ctx = (visibility: number, user: number, id = 5) => ({
  principal: { id } as never,
  identityRevision: { visibility, user },
});

describe('scope reads kept per process', () => {
  it('When nothing changed, then a root group tree and a caller’s memberships are read once', async () => {
    const { models, calls } = countingModels();
    const reads = createScopeReads(models, new ProjectionVersion(), knownRevisions(3, 2));
    await reads.tree(1, ctx(3, 2));
    await reads.tree(1, ctx(3, 2));
    await reads.memberships(5, ctx(3, 2));
    await reads.memberships(5, ctx(3, 2));
    expect(calls).toEqual({ projects: 1, members: 1 });
  });

  it('When this process applied an identity event, then both are read again', async () => {
    const { models, calls } = countingModels();
    const changes = new ProjectionVersion();
    const reads = createScopeReads(models, changes, knownRevisions(3, 2));
    await reads.tree(1, ctx(3, 2));
    await reads.memberships(5, ctx(3, 2));
    changes.bump();
    await reads.tree(1, ctx(3, 2));
    await reads.memberships(5, ctx(3, 2));
    expect(calls).toEqual({ projects: 2, members: 2 });
  });

  it('When a request carries newer revisions than an entry was read at (a change another replica applied), then it is read again', async () => {
    const { models, calls } = countingModels();
    let known = { visibility: 3, user: 2 };
    const reads = createScopeReads(models, new ProjectionVersion(), { known: () => known });
    await reads.tree(1, ctx(3, 2));
    await reads.memberships(5, ctx(3, 2));
    known = { visibility: 4, user: 3 };
    await reads.tree(1, ctx(4, 2));
    await reads.memberships(5, ctx(4, 3));
    expect(calls).toEqual({ projects: 2, members: 2 });
    // Read at the newer revisions, the entries now serve both.
    await reads.tree(1, ctx(4, 3));
    await reads.memberships(5, ctx(4, 3));
    expect(calls).toEqual({ projects: 2, members: 2 });
  });

  it('When the caller is someone else, then their revision requires nothing of the user’s rows', async () => {
    const { models, calls } = countingModels();
    const reads = createScopeReads(models, new ProjectionVersion(), knownRevisions(3, 0));
    await reads.memberships(7, ctx(3, 9, 5));
    await reads.memberships(7, ctx(3, 9, 5));
    expect(calls.members).toBe(1);
  });

  it('When entries are older than the time to live, or nothing may be kept, then every call reads', async () => {
    const { models, calls } = countingModels();
    const none = createScopeReads(models, new ProjectionVersion(), null, 0);
    await none.tree(1, ctx(0, 0));
    await none.tree(1, ctx(0, 0));
    expect(calls.projects).toBe(2);

    jest.useFakeTimers({ now: Date.now() });
    try {
      const reads = createScopeReads(models, new ProjectionVersion(), null, 1_000);
      await reads.tree(2, ctx(0, 0));
      jest.setSystemTime(Date.now() + 1_001);
      await reads.tree(2, ctx(0, 0));
      expect(calls.projects).toBe(4);
    } finally {
      jest.useRealTimers();
    }
  });
});
