import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord, unique, type Api, type ApiResponse, type TestUser } from '../testing/identity.api';

/**
 * `pagination=keyset` on GET /projects (Gitlab::Pagination::Keyset: by id, `id_after` / `id_before`) and
 * GET /groups (Gitlab::Pagination::CursorBasedKeyset: anonymous callers, name ascending, `cursor`), as
 * doc/api/rest/index.md "Keyset-based pagination" and lib/api/helpers/pagination_strategies.rb answer.
 */
const OFFSET_HEADERS = ['x-total', 'x-total-pages', 'x-page', 'x-next-page', 'x-prev-page', 'x-per-page'];
const UNAVAILABLE = { error: 'Keyset pagination is not yet available for this type of request' };

interface Page {
  res: ApiResponse;
  items: Record<string, unknown>[];
  link: string | null;
}

/** Follows Link rel="next" from `first` (a path under /api/v4) until an answer has none. */
async function walk(api: Api, first: string, token: string | null): Promise<Page[]> {
  const pages: Page[] = [];
  let path: string | null = first;
  while (path !== null && pages.length < 30) {
    const res = await api('GET', path, { token });
    expect(res.status).toBe(200);
    const link = res.headers.get('link');
    pages.push({ res, items: asList(res.body), link });
    const next = link === null ? null : new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]!);
    path = next === null ? null : `${next.pathname.replace(/^\/api\/v4/, '')}${next.search}`;
  }
  return pages;
}

const ids = (pages: Page[]) => pages.flatMap((page) => page.items.map((item) => item.id as number));
const queryOf = (link: string) => new URL(/^<([^>]+)>/.exec(link)![1]!).search;

function expectNoOffsetHeaders(pages: Page[]): void {
  for (const page of pages) {
    for (const header of OFFSET_HEADERS) expect(page.res.headers.get(header)).toBeNull();
  }
}

describe('identity: keyset pagination', () => {
  const { api, make } = useGatewayHarness({ name: 'gateway-identity-keyset' });

  describe('GET /projects?pagination=keyset', () => {
    const tag = unique('ks');
    let alice: TestUser;
    let bob: TestUser;
    /** What alice sees among the tagged projects: hers (private too) and the public ones, not bob's private. */
    let visibleToAlice: number[];
    let publicOnes: number[];
    let bobsPrivate: number;
    let alicesPrivate: number;

    beforeAll(async () => {
      alice = await make.user();
      bob = await make.user();
      const made: { id: number; visibility: string; owner: 'alice' | 'bob' }[] = [];
      for (let i = 0; i < 7; i += 1) {
        const owner = i % 2 === 0 ? alice : bob;
        const visibility = i === 3 ? 'private' : i === 4 ? 'internal' : 'public';
        const project = await make.project(owner.token, { path: `${tag}-p${i}`, visibility });
        made.push({ id: project.id, visibility, owner: owner === alice ? 'alice' : 'bob' });
      }
      const mine = await make.project(alice.token, { path: `${tag}-mine`, visibility: 'private' });
      made.push({ id: mine.id, visibility: 'private', owner: 'alice' });
      alicesPrivate = mine.id;
      bobsPrivate = made.find((p) => p.owner === 'bob' && p.visibility === 'private')!.id;
      visibleToAlice = made
        .filter((p) => p.visibility !== 'private' || p.owner === 'alice')
        .map((p) => p.id)
        .sort((a, b) => a - b);
      publicOnes = made
        .filter((p) => p.visibility === 'public')
        .map((p) => p.id)
        .sort((a, b) => a - b);
    });

    it('When a caller walks order_by=id sort=asc, then every visible project once in id order, id_after links, no totals', async () => {
      const pages = await walk(
        api,
        `/projects?pagination=keyset&order_by=id&sort=asc&per_page=3&search=${tag}`,
        alice.token,
      );
      expect(ids(pages)).toEqual(visibleToAlice);
      expect(ids(pages)).not.toContain(bobsPrivate);
      // GitLab's Pager reads no row beyond the page: a page with projects links on; the end is an empty page.
      expect(pages.map((page) => page.items.length)).toEqual([3, 3, 1, 0]);
      expect(pages[0]!.link).toMatch(
        new RegExp(
          `^<http://[^/]+/api/v4/projects\\?id_after=${visibleToAlice[2]}&order_by=id&pagination=keyset&per_page=3&search=${tag}&sort=asc>; rel="next"$`,
        ),
      );
      expect(pages.at(-1)!.link).toBeNull();
      expectNoOffsetHeaders(pages);
    });

    it('When a caller walks order_by=id sort=desc (or no sort), then every visible project once, newest first, id_before links', async () => {
      for (const sort of ['&sort=desc', '']) {
        const pages = await walk(
          api,
          `/projects?pagination=keyset&order_by=id${sort}&per_page=2&search=${tag}`,
          alice.token,
        );
        expect(ids(pages)).toEqual([...visibleToAlice].reverse());
        expect(queryOf(pages[0]!.link!)).toBe(
          `?id_before=${visibleToAlice.at(-2)}&order_by=id&pagination=keyset&per_page=2&search=${tag}${sort}`,
        );
        expectNoOffsetHeaders(pages);
      }
    });

    it('When an anonymous caller walks by keyset, then only the public projects', async () => {
      const pages = await walk(
        api,
        `/projects?pagination=keyset&order_by=id&sort=asc&per_page=2&search=${tag}`,
        null,
      );
      expect(ids(pages)).toEqual(publicOnes);
    });

    it('When the next page is asked with id_after, then it starts after that id; offset pages take it as a filter', async () => {
      const after = visibleToAlice[1]!;
      const page = await api(
        'GET',
        `/projects?pagination=keyset&order_by=id&sort=asc&per_page=2&search=${tag}&id_after=${after}`,
        { token: alice.token },
      );
      expect(asList(page.body).map((p) => p.id)).toEqual(visibleToAlice.slice(2, 4));
      const offset = await api('GET', `/projects?order_by=id&sort=asc&search=${tag}&id_after=${after}`, {
        token: alice.token,
      });
      expect(asList(offset.body).map((p) => p.id)).toEqual(visibleToAlice.slice(2));
      expect(offset.headers.get('x-total')).toBe(String(visibleToAlice.length - 2));
      const before = await api('GET', `/projects?order_by=id&sort=asc&search=${tag}&id_before=${after}`, {
        token: alice.token,
      });
      expect(asList(before.body).map((p) => p.id)).toEqual(visibleToAlice.slice(0, 1));
    });

    it("When keyset is asked with another order (or the default created_at), then 405 and GitLab's message", async () => {
      for (const order of ['', '&order_by=created_at', '&order_by=name&sort=asc', '&order_by=star_count']) {
        const res = await api('GET', `/projects?pagination=keyset${order}`, { token: alice.token });
        expect(res.status).toBe(405);
        expect(res.body).toEqual(UNAVAILABLE);
      }
    });

    it('When pagination is absent or not keyset, then offset pages with totals as before', async () => {
      for (const pagination of ['', '&pagination=offset', '&pagination=other']) {
        const res = await api('GET', `/projects?order_by=id&per_page=2&search=${tag}${pagination}`, {
          token: alice.token,
        });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-total')).toBe(String(visibleToAlice.length));
        expect(res.headers.get('link')).toContain('rel="last"');
      }
    });

    it("When a user's projects are walked by keyset, then the same rules apply", async () => {
      const pages = await walk(
        api,
        `/users/${alice.id}/projects?pagination=keyset&order_by=id&sort=asc&per_page=2`,
        bob.token,
      );
      const alicesVisibleToBob = await api('GET', `/users/${alice.id}/projects?order_by=id&sort=asc`, {
        token: bob.token,
      });
      expect(ids(pages)).toEqual(asList(alicesVisibleToBob.body).map((p) => p.id));
      expect(ids(pages).length).toBeGreaterThan(0);
      expect(ids(pages)).not.toContain(alicesPrivate);
    });
  });

  describe('GET /groups?pagination=keyset', () => {
    const tag = unique('ksg');
    /** The public tagged groups in GitLab's keyset order: name, then id. */
    let ordered: { id: number; name: string }[];
    let privateGroup: number;

    beforeAll(async () => {
      const group = async (name: string, visibility: string, parentId?: number) => {
        const res = await api('POST', '/groups', {
          body: { name, path: unique(tag), visibility, ...(parentId ? { parent_id: parentId } : {}) },
        });
        expect(res.status).toBe(201);
        return { id: asRecord(res.body).id as number, name };
      };
      const made = [
        await group(`${tag} delta`, 'public'),
        await group(`${tag} alpha`, 'public'),
        await group(`${tag} charlie`, 'public'),
        await group(`${tag} bravo`, 'public'),
        await group(`${tag} echo`, 'public'),
      ];
      // Two subgroups of one name: the id breaks the tie.
      made.push(await group(`${tag} same`, 'public', made[0]!.id));
      made.push(await group(`${tag} same`, 'public', made[1]!.id));
      privateGroup = (await group(`${tag} aaa hidden`, 'private')).id;
      ordered = [...made].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id));
    });

    it('When an anonymous caller walks the groups by keyset, then every public group once by name and id, cursor links', async () => {
      const pages = await walk(api, `/groups?pagination=keyset&per_page=3&search=${tag}`, null);
      expect(ids(pages)).toEqual(ordered.map((g) => g.id));
      expect(ids(pages)).not.toContain(privateGroup);
      // The Paginator reads one group more than the page: the last page has no Link.
      expect(pages.map((page) => page.items.length)).toEqual([3, 3, 1]);
      expect(pages.at(-1)!.link).toBeNull();
      const cursor = pages[0]!.res.headers.get('x-next-cursor')!;
      expect(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))).toEqual({
        name: ordered[2]!.name,
        id: String(ordered[2]!.id),
        _kd: 'n',
      });
      expect(pages[0]!.link).toBe(
        `<${new URL(/^<([^>]+)>/.exec(pages[0]!.link!)![1]!).origin}/api/v4/groups?cursor=${encodeURIComponent(cursor)}&pagination=keyset&per_page=3&search=${tag}>; rel="next"`,
      );
      expectNoOffsetHeaders(pages);
    });

    it("When the keyset order is not name ascending, then 405 and GitLab's message", async () => {
      for (const order of ['order_by=id', 'order_by=path', 'sort=desc', 'order_by=name&sort=desc']) {
        const res = await api('GET', `/groups?pagination=keyset&${order}`, { token: null });
        expect(res.status).toBe(405);
        expect(res.body).toEqual(UNAVAILABLE);
      }
      const explicit = await api('GET', `/groups?pagination=keyset&order_by=name&sort=asc&search=${tag}`, {
        token: null,
      });
      expect(explicit.status).toBe(200);
    });

    it('When the cursor is not one the server wrote, then 400 cursor is invalid', async () => {
      const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      for (const cursor of [
        '***',
        'bm90IGpzb24',
        forged([1]),
        forged({ name: 1, id: '2', _kd: 'n' }),
        forged({ name: 'a', id: 'x', _kd: 'n' }),
        forged({ name: 'a', id: '2', _kd: 'p' }),
      ]) {
        const res = await api('GET', `/groups?pagination=keyset&cursor=${encodeURIComponent(cursor)}`, {
          token: null,
        });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'cursor is invalid' });
      }
    });

    it('When a signed-in caller asks for keyset, then offset pages as GitLab gives them (keyset is for anonymous callers)', async () => {
      const res = await api('GET', `/groups?pagination=keyset&per_page=2&search=${tag}&order_by=id`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBe(String(ordered.length + 1));
      expect(res.headers.get('x-next-cursor')).toBeNull();
    });
  });
});
