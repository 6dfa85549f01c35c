import { z } from 'zod';
import { EVENT_TYPES, KEYSET_UNAVAILABLE_MESSAGE, type NamespaceContext } from '@gl/contracts';
import { OWNER, groupEventFields, projectEventFields, useHarness } from '@gl/testing';
import { groupNamespace, projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { memberEventFields } from '../testing/memberships';

const ID = EVENT_TYPES.identity;
const items = z.array(z.object({ id: z.number(), title: z.string() }));
let counter = 0;
const uniqueSuffix = (): string => `${Date.now().toString(36)}${counter++}`;

interface Answer {
  ids: number[];
  link: string | null;
}

/**
 * Keyset pages of issue and merge request lists (`pagination=keyset`, beyond GitLab, which pages these by
 * offset): every item once in the offset list's order, `Link` rel="next" until the last page with the
 * request's filters kept, no totals, GitLab's 405 for orders no index range serves.
 */
describe('Keyset pages of issues and merge requests', () => {
  const h = useHarness(startDiscussionsHarness);

  /** A public group with one project: seven issues (five labelled) and five merge requests. */
  async function world() {
    const label = `K${uniqueSuffix()}`;
    const g = groupNamespace({ visibility: 'public' });
    await h.deliver(ID.groupCreated, groupEventFields(g.id, { visibility: 'public', ancestorGroupIds: [] }));
    const ns = projectNamespace({ visibility: 'public', ancestorGroupIds: [g.id], fullPath: `k/${label}` });
    await h.deliver(
      ID.projectCreated,
      projectEventFields(ns.id, { visibility: 'public', ancestorGroupIds: [g.id], fullPath: ns.fullPath }),
    );
    await h.deliver(ID.memberAdded, memberEventFields('group', g.id, OWNER.id, 50));
    for (let i = 1; i <= 7; i++) {
      const labels = i <= 5 ? label : `${label}x`;
      const res = await h.call('POST', `/projects/${ns.id}/issues`, {
        ns,
        level: 50,
        json: { title: `i${i}`, labels },
      });
      expect(res.status).toBe(201);
    }
    // Touched out of creation order, so updated_at differs from created_at.
    const touched = await h.call('PUT', `/projects/${ns.id}/issues/2`, {
      ns,
      level: 50,
      json: { title: 'i2b' },
    });
    expect(touched.status).toBe(200);
    for (let i = 1; i <= 5; i++) {
      const res = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
        ns,
        level: 50,
        json: { source_branch: `f${i}-${label}`, target_branch: 'main', title: `m${i}` },
      });
      expect(res.status).toBe(201);
    }
    return { label, g, ns };
  }

  const get = (path: string, ns: NamespaceContext | null) =>
    h.call('GET', path, ns ? { ns, level: 50 } : { ns: null, as: OWNER });

  /** Every keyset page from `first` on, following `Link` rel="next": the ids and each page's link. */
  async function walk(first: string, ns: NamespaceContext | null) {
    const pages: Answer[] = [];
    let path: string | null = first;
    for (let guard = 0; path !== null && guard < 30; guard++) {
      const res = await get(path, ns);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBeNull();
      expect(res.headers.get('x-page')).toBeNull();
      const link = res.headers.get('link');
      pages.push({ ids: items.parse(res.body).map((i) => i.id), link });
      if (link) {
        expect(link).toMatch(/; rel="next"$/);
        expect(link).toContain(`cursor=${encodeURIComponent(res.headers.get('x-next-cursor')!)}`);
      }
      const next = link === null ? null : new URL(link.slice(1, link.indexOf('>')));
      path = next === null ? null : `${next.pathname.replace(/^\/api\/v4/, '')}${next.search}`;
    }
    return pages;
  }

  /** The ids of the offset list in the same order, all on one page. */
  async function offsetIds(path: string, ns: NamespaceContext | null) {
    const res = await get(`${path}&per_page=100`, ns);
    expect(res.status).toBe(200);
    return items.parse(res.body).map((i) => i.id);
  }

  it('When a project lists issues by keyset in each order, then every issue once across 3+ pages, the filters kept', async () => {
    const { label, ns } = await world();
    const base = `/projects/${ns.id}/issues?labels=${label}`;
    for (const order of ['created_at', 'updated_at', 'id']) {
      for (const sort of ['asc', 'desc']) {
        const pages = await walk(`${base}&pagination=keyset&per_page=2&order_by=${order}&sort=${sort}`, ns);
        expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 1]);
        expect(pages.at(-1)!.link).toBeNull();
        for (const page of pages.slice(0, -1)) {
          expect(page.link).toContain(`labels=${label}`);
          expect(page.link).toContain('per_page=2');
          expect(page.link).toContain(`order_by=${order}`);
          expect(page.link).toContain(`sort=${sort}`);
        }
        const ids = pages.flatMap((p) => p.ids);
        const expected =
          order === 'id'
            ? [...ids].sort((a, b) => (sort === 'asc' ? a - b : b - a))
            : await offsetIds(`${base}&order_by=${order}&sort=${sort}`, ns);
        expect({ order, sort, ids }).toEqual({ order, sort, ids: expected });
        expect(new Set(ids).size).toBe(5);
      }
    }
    // The default order: created_at descending, as the offset list.
    const byDefault = await walk(`${base}&pagination=keyset&per_page=2`, ns);
    expect(byDefault.flatMap((p) => p.ids)).toEqual(await offsetIds(`${base}&order_by=created_at`, ns));
  });

  it('When a group or the instance lists issues by keyset, then the same issues as the offset list', async () => {
    const { label, g } = await world();
    for (const [path, ns] of [
      [`/groups/${g.id}/issues?labels=${label}`, g],
      [`/issues?scope=all&labels=${label}`, null],
    ] as const) {
      const pages = await walk(`${path}&pagination=keyset&per_page=2&order_by=updated_at`, ns);
      expect(pages.length).toBe(3);
      expect(pages.flatMap((p) => p.ids)).toEqual(await offsetIds(`${path}&order_by=updated_at`, ns));
    }
  });

  it('When merge requests are listed by keyset at each scope, then every one once in order', async () => {
    const { g, ns } = await world();
    for (const [path, scope] of [
      [`/projects/${ns.id}/merge_requests?state=opened`, ns],
      [`/groups/${g.id}/merge_requests?state=opened`, g],
    ] as const) {
      for (const sort of ['asc', 'desc']) {
        const pages = await walk(
          `${path}&pagination=keyset&per_page=2&order_by=created_at&sort=${sort}`,
          scope,
        );
        expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 1]);
        expect(pages[0]!.link).toContain('state=opened');
        const ids = pages.flatMap((p) => p.ids);
        expect(ids).toEqual(await offsetIds(`${path}&order_by=created_at&sort=${sort}`, scope));
      }
    }
  });

  it('When the cursor was not written here, the order has no keyset, or id is asked without keyset, then 400 or 405', async () => {
    const { ns } = await world();
    const base = `/projects/${ns.id}/issues?pagination=keyset`;
    const encoded = (json: string) => Buffer.from(json).toString('base64url');
    for (const cursor of [
      '***',
      encoded('{"id":"1","_kd":"p"}'),
      encoded('{"created_at":"yesterday","id":"1","_kd":"n"}'),
      encoded('{"id":"x","_kd":"n"}'),
    ]) {
      const res = await get(`${base}&cursor=${cursor}`, ns);
      expect({ cursor, status: res.status, body: res.body }).toEqual({
        cursor,
        status: 400,
        body: { error: 'cursor is invalid' },
      });
    }
    for (const path of [base, `/projects/${ns.id}/merge_requests?pagination=keyset`]) {
      for (const order of ['title', 'due_date', 'relative_position', 'popularity', 'label_priority']) {
        if (order === 'due_date' || order === 'relative_position') if (path.includes('merge')) continue;
        const res = await get(`${path}&order_by=${order}`, ns);
        expect({ order, status: res.status, body: res.body }).toEqual({
          order,
          status: 405,
          body: { error: KEYSET_UNAVAILABLE_MESSAGE },
        });
      }
    }
    const unknown = await get(`${base}&order_by=size`, ns);
    expect([unknown.status, unknown.body]).toEqual([400, { error: 'order_by does not have a valid value' }]);
    const byIdOffset = await get(`/projects/${ns.id}/issues?order_by=id`, ns);
    expect([byIdOffset.status, byIdOffset.body]).toEqual([
      400,
      { error: 'order_by does not have a valid value' },
    ]);
  });
});
