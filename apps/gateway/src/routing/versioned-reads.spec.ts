import type { NamespaceContext } from '@gl/contracts';
import { testPrincipal } from '@gl/testing';
import { createVersionedReads, type VersionedRead } from './versioned-reads';

const namespace: NamespaceContext = {
  kind: 'project',
  id: 7,
  name: 'p',
  path: 'p',
  fullPath: 'g/p',
  fullName: 'G / p',
  visibility: 'private',
  webUrl: 'http://localhost/g/p',
  ancestorGroupIds: [3],
  accessLevel: 30,
};

describe('versioned reads', () => {
  const bucket = new Map<string, number>([
    ['identity.all', 4],
    ['discussions.all', 9],
    ['discussions.p.7', 12],
  ]);
  let reachable = true;
  const reads = createVersionedReads(
    {
      current: async (keys) => {
        if (!reachable) return new Promise<number[]>(() => undefined);
        return keys.map((key) => bucket.get(key) ?? 0);
      },
    },
    (key) => bucket.get(key) ?? 0,
  );
  const read = (over: Partial<VersionedRead> = {}): VersionedRead => ({
    service: 'discussions',
    namespace,
    url: '/api/v4/projects/7/issues/1',
    principal: testPrincipal({ id: 5 }),
    tier: 'free',
    revision: { user: 1, visibility: 2 },
    ifNoneMatch: undefined,
    ...over,
  });
  const tagOf = async (over: Partial<VersionedRead> = {}) => (await reads.decide(read(over)))!.tag;

  it('When the versions have not moved, then the tag a client holds is a 304', async () => {
    const tag = await tagOf();
    expect(tag).toMatch(/^W\/"v1-[\w-]+"$/);
    expect(await reads.decide(read({ ifNoneMatch: tag }))).toEqual({ notModified: true, tag });
    expect(await reads.decide(read({ ifNoneMatch: `"other", ${tag}` }))).toEqual({ notModified: true, tag });
  });

  it('When the project’s key, the service’s or the identity catalogue’s moves, then the old tag gets the full answer', async () => {
    for (const key of ['discussions.p.7', 'discussions.all', 'identity.all']) {
      const tag = await tagOf();
      bucket.set(key, bucket.get(key)! + 1);
      const decision = await reads.decide(read({ ifNoneMatch: tag }));
      expect({ key, notModified: decision!.notModified }).toEqual({ key, notModified: false });
      expect(decision!.tag).not.toBe(tag);
    }
  });

  it('When another project’s or another service’s key moves, then the tag holds', async () => {
    const tag = await tagOf();
    bucket.set('discussions.p.8', 1);
    bucket.set('boards.p.7', 1);
    bucket.set('discussions.g.3', 1);
    expect((await reads.decide(read({ ifNoneMatch: tag })))!.notModified).toBe(true);
  });

  it('When the caller, their access revisions, the URL, the tier or the namespace differ, then so does the tag', async () => {
    const tag = await tagOf();
    for (const over of [
      { principal: testPrincipal({ id: 6 }) },
      { principal: null },
      { revision: { user: 2, visibility: 2 } },
      { revision: { user: 1, visibility: 3 } },
      { url: '/api/v4/projects/7/issues/1?page=2' },
      { tier: 'premium' as const },
      { namespace: { ...namespace, fullPath: 'g/renamed' } },
    ]) {
      expect(await tagOf(over)).not.toBe(tag);
    }
  });

  it('When If-None-Match is `*`, or the bucket does not answer, then the gateway does not decide', async () => {
    expect((await reads.decide(read({ ifNoneMatch: '*' })))!.notModified).toBe(false);
    reachable = false;
    const tag = await tagOf();
    expect(await reads.decide(read({ ifNoneMatch: tag }))).toBeNull();
    reachable = true;
  });
});
