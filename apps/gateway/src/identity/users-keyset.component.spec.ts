import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, unique, type Api, type ApiResponse, type TestUser } from '../testing/identity.api';

/**
 * GET /users?pagination=keyset as GitLab pages it (Gitlab::Pagination::CursorBasedKeyset for User,
 * `supported_keyset_orderings`: id, name, username, created_at, updated_at, asc or desc; lib/api/users.rb).
 */
const OFFSET_HEADERS = ['x-total', 'x-total-pages', 'x-page', 'x-next-page', 'x-prev-page', 'x-per-page'];

interface Page {
  res: ApiResponse;
  items: Record<string, unknown>[];
  link: string | null;
}

async function walk(api: Api, first: string, token?: string | null): Promise<Page[]> {
  const pages: Page[] = [];
  let path: string | null = first;
  while (path !== null && pages.length < 30) {
    const res = await api('GET', path, token === undefined ? {} : { token });
    expect(res.status).toBe(200);
    const link = res.headers.get('link');
    pages.push({ res, items: asList(res.body), link });
    const next = link === null ? null : new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]!);
    path = next === null ? null : `${next.pathname.replace(/^\/api\/v4/, '')}${next.search}`;
  }
  return pages;
}

const ids = (pages: Page[]) => pages.flatMap((page) => page.items.map((item) => item.id as number));

describe('identity: users by keyset', () => {
  const { api, make } = useGatewayHarness({ name: 'gateway-identity-users-keyset' });
  const tag = unique('ku');
  let made: TestUser[];
  /** The tagged users, as the offset list gives them in each order (the reference for the keyset walk). */
  const offsetIds = async (order: string) =>
    asList((await api('GET', `/users?search=${tag}&per_page=100${order}`)).body).map((u) => u.id as number);

  beforeAll(async () => {
    made = [];
    // Usernames in an order unlike their ids, so each order is its own.
    for (const suffix of ['d', 'b', 'e', 'a', 'c', 'g', 'f'])
      made.push(await make.user({ username: `${tag}${suffix}` }));
  });

  it('When users are walked by keyset in the default order, then every one once, newest first, cursor links and no totals', async () => {
    const pages = await walk(api, `/users?pagination=keyset&per_page=3&search=${tag}`);
    expect(ids(pages)).toEqual(made.map((u) => u.id).sort((a, b) => b - a));
    expect(pages.map((page) => page.items.length)).toEqual([3, 3, 1]);
    expect(pages.at(-1)!.link).toBeNull();
    const cursor = pages[0]!.res.headers.get('x-next-cursor')!;
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).toEqual({
      id: String(ids(pages)[2]),
      _kd: 'n',
    });
    expect(new URL(/^<([^>]+)>/.exec(pages[0]!.link!)![1]!).search).toBe(
      `?cursor=${encodeURIComponent(cursor)}&pagination=keyset&per_page=3&search=${tag}`,
    );
    for (const page of pages) {
      for (const header of OFFSET_HEADERS) expect(page.res.headers.get(header)).toBeNull();
    }
  });

  it('When users are walked by keyset in every order GitLab supports, then the offset order, each user once', async () => {
    for (const orderBy of ['id', 'name', 'username', 'created_at', 'updated_at']) {
      for (const sort of ['asc', 'desc']) {
        const order = `&order_by=${orderBy}&sort=${sort}`;
        const pages = await walk(api, `/users?pagination=keyset&per_page=2&search=${tag}${order}`);
        expect({ order, ids: ids(pages) }).toEqual({ order, ids: await offsetIds(order) });
        expect(new Set(ids(pages)).size).toBe(made.length);
      }
    }
  });

  it('When ordered by username, then the cursor carries the username and the id as GitLab writes them', async () => {
    const first = await api(
      'GET',
      `/users?pagination=keyset&per_page=2&search=${tag}&order_by=username&sort=asc`,
    );
    expect(asList(first.body).map((u) => u.username)).toEqual([`${tag}a`, `${tag}b`]);
    const cursor = first.headers.get('x-next-cursor')!;
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).toEqual({
      username: `${tag}b`,
      id: String(made[1]!.id),
      _kd: 'n',
    });
  });

  it('When ordered by created_at, then the cursor holds the time in Rails inspect format', async () => {
    const first = await api('GET', `/users?pagination=keyset&per_page=1&search=${tag}&order_by=created_at`);
    const cursor = JSON.parse(
      Buffer.from(first.headers.get('x-next-cursor')!, 'base64url').toString('utf8'),
    ) as Record<string, string>;
    expect(cursor.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{9} \+0000$/);
  });

  it('When the cursor is not one the server wrote for the order, then 400 cursor is invalid', async () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const [order, cursor] of [
      ['', '***'],
      ['', forged({ id: 'x', _kd: 'n' })],
      ['&order_by=name', forged({ id: '3', _kd: 'n' })],
      ['&order_by=created_at', forged({ created_at: 'yesterday', id: '3', _kd: 'n' })],
    ] as const) {
      const res = await api('GET', `/users?pagination=keyset${order}&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'cursor is invalid' });
    }
  });

  it('When an anonymous caller pages by keyset, then the same rule as offset pages: only a username lookup', async () => {
    const anonymous = await api('GET', '/users?pagination=keyset', { token: null });
    expect(anonymous.status).toBe(403);
    const one = await walk(api, `/users?pagination=keyset&username=${made[0]!.username}`, null);
    expect(ids(one)).toEqual([made[0]!.id]);
  });

  it('When pagination is absent, then offset pages with totals, now in the order asked', async () => {
    const res = await api('GET', `/users?search=${tag}&per_page=2&order_by=username&sort=asc`);
    expect(res.headers.get('x-total')).toBe(String(made.length));
    expect(asList(res.body).map((u) => u.username)).toEqual([`${tag}a`, `${tag}b`]);
  });
});
