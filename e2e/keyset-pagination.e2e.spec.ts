import { api, unique } from './e2e.helpers';
import { createGroup, createProject, createUser } from './hardening/world';

/**
 * Keyset pages through the whole stack (`pagination=keyset`, doc/api/rest/index.md "Keyset-based
 * pagination"): every page a range read along an index from its cursor, which the stack's full-scan report
 * checks at teardown (a page read by scanning its table fails the run).
 */
async function post(path: string, body: Record<string, unknown>, method = 'POST'): Promise<{ id: number }> {
  const res = await api(path, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect([path, res.status]).toEqual([path, method === 'POST' ? 201 : 200]);
  return (await res.json()) as { id: number };
}

/** The ids of an offset list, all on one page. */
async function offsetIds(path: string): Promise<number[]> {
  const res = await api(`${path}&per_page=100`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: number }[]).map((item) => item.id);
}

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

  const label = unique('ksl');
  const issueIds: number[] = [];
  let parentId = 0;

  beforeAll(async () => {
    const parent = await createGroup('public');
    parentId = parent.id;
    groupIds.push(parent.id);
    for (let i = 0; i < 4; i += 1) groupIds.push((await createGroup('public', parent.id)).id);
    for (let i = 0; i < 5; i += 1) projectIds.push((await createProject(parent.id, 'public')).id);
    for (let i = 0; i < 3; i += 1) await createUser(tag);
    // Five labelled issues, merge requests and comments on the first issue (discussions' keyset lists).
    const project = projectIds[0]!;
    for (let i = 1; i <= 5; i += 1) {
      issueIds.push((await post(`/projects/${project}/issues`, { title: `k${i}`, labels: label })).id);
      await post(`/projects/${project}/merge_requests`, {
        title: `m${i}`,
        source_branch: `${label}-${i}`,
        target_branch: 'main',
      });
    }
    await post(`/projects/${project}/issues/1`, { title: 'k1b' }, 'PUT');
    for (let i = 1; i <= 5; i += 1) await post(`/projects/${project}/issues/1/notes`, { body: `c${i}` });
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

  it('When issues are walked by keyset at each scope and order, then each once in the offset order, filters kept', async () => {
    const project = `/projects/${projectIds[0]}/issues?labels=${label}`;
    for (const order of ['created_at', 'updated_at']) {
      for (const sort of ['asc', 'desc']) {
        const query = `&order_by=${order}&sort=${sort}`;
        const ids = await walk(`${project}&pagination=keyset&per_page=2${query}`);
        expect(ids).toEqual(await offsetIds(`${project}${query}`));
        expect([...ids].sort((a, b) => a - b)).toEqual(issueIds);
      }
    }
    const byId = await walk(`${project}&pagination=keyset&per_page=2&order_by=id&sort=asc`);
    expect(byId).toEqual(issueIds);
    const group = `/groups/${parentId}/issues?labels=${label}`;
    expect(await walk(`${group}&pagination=keyset&per_page=2`)).toEqual(await offsetIds(group));
    const instance = `/issues?scope=all&labels=${label}`;
    expect(await walk(`${instance}&pagination=keyset&per_page=2`)).toEqual(await offsetIds(instance));
  });

  it('When merge requests and notes are walked by keyset, then each once in the offset order', async () => {
    const mrs = `/projects/${projectIds[0]}/merge_requests?state=opened&order_by=updated_at`;
    const walkedMrs = await walk(`${mrs}&pagination=keyset&per_page=2`);
    expect(walkedMrs).toHaveLength(5);
    expect(walkedMrs).toEqual(await offsetIds(mrs));
    const notes = `/projects/${projectIds[0]}/issues/1/notes?activity_filter=only_comments&sort=asc`;
    const walkedNotes = await walk(`${notes}&pagination=keyset&per_page=2`);
    expect(walkedNotes).toHaveLength(5);
    expect(walkedNotes).toEqual(await offsetIds(notes));
  });

  it("When an issue list's order has no keyset or its cursor was not written here, then 405 or 400", async () => {
    const base = `/projects/${projectIds[0]}/issues?pagination=keyset`;
    const title = await api(`${base}&order_by=title`);
    expect([title.status, await title.json()]).toEqual([
      405,
      { error: 'Keyset pagination is not yet available for this type of request' },
    ]);
    const cursor = await api(`${base}&cursor=bm90IGpzb24`);
    expect([cursor.status, await cursor.json()]).toEqual([400, { error: 'cursor is invalid' }]);
  });
});
