import { ProjectionVersion } from '@gl/service-kit';
import { createAuthorCopies } from './author-copies';
import type { UserDoc } from './events.models';

const user = (id: number, name = `User ${id}`) => ({ _id: id, username: `u${id}`, name }) as UserDoc;

describe('author copies', () => {
  function setup(ttlMs = 60_000, maxEntries = 100) {
    const stored = new Map<number, UserDoc>([1, 2, 3].map((id) => [id, user(id)]));
    const byIds = jest.fn(async (ids: number[]) =>
      ids.flatMap((id) => (stored.has(id) ? [stored.get(id)!] : [])),
    );
    const version = new ProjectionVersion();
    return { stored, byIds, version, copies: createAuthorCopies({ byIds }, version, ttlMs, maxEntries) };
  }

  it('When a page names authors read before, then only the others are read, in one read', async () => {
    const { byIds, copies } = setup();
    await copies.byIds([1, 2]);
    const second = await copies.byIds([2, 3, 2]);
    expect(second.map((u) => u._id).sort()).toEqual([2, 3]);
    expect(byIds.mock.calls).toEqual([[[1, 2]], [[3]]]);
  });

  it('When this process applies an identity change, then every author is read again', async () => {
    const { stored, byIds, version, copies } = setup();
    await copies.byIds([1]);
    stored.set(1, user(1, 'Renamed'));
    version.bump();
    expect((await copies.byIds([1]))[0]!.name).toBe('Renamed');
    expect(byIds).toHaveBeenCalledTimes(2);
  });

  it('When an entry is older than the TTL, then it is read again', async () => {
    const { byIds, copies } = setup(0);
    await copies.byIds([1]);
    await copies.byIds([1]);
    expect(byIds).toHaveBeenCalledTimes(2);
  });

  it('When an author has no copy yet, then it is not remembered as missing', async () => {
    const { stored, byIds, copies } = setup();
    expect(await copies.byIds([9])).toEqual([]);
    stored.set(9, user(9));
    expect((await copies.byIds([9])).map((u) => u._id)).toEqual([9]);
    expect(byIds).toHaveBeenCalledTimes(2);
  });

  it('When more authors than the limit were read, then the least recently loaded are forgotten', async () => {
    const { byIds, copies } = setup(60_000, 2);
    await copies.byIds([1]);
    await copies.byIds([2]);
    await copies.byIds([3]);
    await copies.byIds([2, 3]);
    expect(byIds).toHaveBeenCalledTimes(3);
    await copies.byIds([1]);
    expect(byIds).toHaveBeenCalledTimes(4);
  });
});
