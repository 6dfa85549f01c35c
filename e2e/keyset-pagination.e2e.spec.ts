import { api, unique } from './e2e.helpers';
import { createGroup, createProject, createUser } from './hardening/world';

/**
 * Keyset pages through the whole stack (`pagination=keyset`, doc/api/rest/index.md "Keyset-based
 * pagination"): every page a range read along an index from its cursor, which the stack's full-scan report
 * checks at teardown (a page read by scanning its table fails the run).
 */
async function walk(first: string, token?: string | null): Promise<number[]> {
  const ids: number[] = [];
  let path: string | null = first;
  for (let pages = 0; path !== null && pages < 50; pages += 1) {
    const res = await api(path, token === undefined ? {} : { token });
    expect(res.status).toBe(200);
    for (const item of (await res.json()) as { id: number }[]) ids.push(item.id);
    const link = res.headers.get('link');
    const next = link === null ? null : new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]!);
    path = next === null ? null : `${next.pathname.replace(/^\/api\/v4/, '')}${next.search}`;
  }
  return ids;
}

describe('keyset pagination through the stack', () => {
  const tag = unique('kse');
  const projectIds: number[] = [];
  const groupIds: number[] = [];

  beforeAll(async () => {
    const parent = await createGroup('public');
    groupIds.push(parent.id);
    for (let i = 0; i < 4; i += 1) groupIds.push((await createGroup('public', parent.id)).id);
    for (let i = 0; i < 5; i += 1) projectIds.push((await createProject(parent.id, 'public')).id);
    for (let i = 0; i < 3; i += 1) await createUser(tag);
  });

  it('When projects are walked by id, then each once in order, asc and desc', async () => {
    const asc = await walk('/projects?pagination=keyset&order_by=id&sort=asc&per_page=2', null);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(asc).toEqual(expect.arrayContaining(projectIds));
    const desc = await walk('/projects?pagination=keyset&order_by=id&per_page=2', null);
    expect(desc).toEqual([...asc].reverse());
  });

  it('When groups are walked anonymously by name, then each once', async () => {
    const groups = await walk('/groups?pagination=keyset&per_page=2', null);
    expect(new Set(groups).size).toBe(groups.length);
    expect(groups).toEqual(expect.arrayContaining(groupIds));
  });

  it('When users are walked in each order, then each once', async () => {
    for (const order of [
      '',
      '&order_by=name&sort=asc',
      '&order_by=username',
      '&order_by=created_at&sort=asc',
    ]) {
      const users = await walk(`/users?pagination=keyset&per_page=2${order}`);
      expect(new Set(users).size).toBe(users.length);
      expect(users.length).toBeGreaterThanOrEqual(4);
    }
  });
});
