import { z } from 'zod';
import { registryTagEntity } from '@gl/contracts';
import { startRegistryHarness, type SeededProject } from './testing/registry.harness';
import { GUEST, REPORTER, useHarness } from '@gl/testing';

/**
 * GET …/tags?pagination=keyset as GitLab answers it with the registry's metadata database
 * (lib/api/project_container_repositories.rb): pages by name after `last`, Link rel="next" only while more
 * tags follow, carrying `last`, `per_page` and `sort`, and no totals.
 */
describe('registry tags by keyset', () => {
  const h = useHarness(startRegistryHarness);
  let p: SeededProject;
  let repo: number;
  const names = ['a.b-c_d', 'latest', 'v1', 'v10', 'v2', 'v3', 'z-last'];
  const base = () => `/projects/${p.id}/registry/repositories/${repo}`;

  beforeAll(async () => {
    p = await h.seedProject('keyset-group/keyset-project');
    for (const name of [...names].reverse()) repo = await h.pushTag(`${p.fullPath}/img`, name);
    // Another repository's tags sit beside these in the index and never show.
    await h.pushTag(`${p.fullPath}/other`, 'aaa');
    await h.pushTag(`${p.fullPath}/other`, 'zzz');
  });

  /** Follows Link rel="next" from `first`; every answer's names and headers. */
  async function walk(first: string) {
    const pages: { names: string[]; link: string | null; headers: Headers }[] = [];
    let path: string | null = first;
    while (path !== null && pages.length < 20) {
      const reply = await h.call('GET', path, { ns: p.ns, as: REPORTER });
      expect(reply.status).toBe(200);
      const link = reply.headers.get('link');
      const page = z.array(registryTagEntity).parse(reply.body);
      pages.push({ names: page.map((t) => t.name), link, headers: reply.headers });
      const next = link === null ? null : new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]!);
      path = next === null ? null : `${next.pathname.replace(/^\/api\/v4/, '')}${next.search}`;
    }
    return pages;
  }

  it('When tags are walked by keyset ascending, then every name once in order, the last page without Link', async () => {
    const pages = await walk(`${base()}/tags?pagination=keyset&per_page=3`);
    expect(pages.map((page) => page.names)).toEqual([
      ['a.b-c_d', 'latest', 'v1'],
      ['v10', 'v2', 'v3'],
      ['z-last'],
    ]);
    expect(new URL(/^<([^>]+)>/.exec(pages[0]!.link!)![1]!).search).toBe(
      '?last=v1&pagination=keyset&per_page=3&sort=asc',
    );
    expect(pages[0]!.link).toMatch(
      new RegExp(
        `^<http://[^/]+/api/v4${base()}/tags\\?last=v1&pagination=keyset&per_page=3&sort=asc>; rel="next"$`,
      ),
    );
    expect(pages[2]!.link).toBeNull();
    for (const page of pages) {
      for (const header of ['x-total', 'x-total-pages', 'x-page', 'x-next-page', 'x-prev-page', 'x-per-page'])
        expect(page.headers.get(header)).toBeNull();
    }
  });

  it('When tags are walked by keyset with sort=desc, then every name once in descending order', async () => {
    const pages = await walk(`${base()}/tags?pagination=keyset&per_page=2&sort=desc`);
    expect(pages.flatMap((page) => page.names)).toEqual([...names].reverse());
    expect(pages.map((page) => page.names.length)).toEqual([2, 2, 2, 1]);
    expect(new URL(/^<([^>]+)>/.exec(pages[0]!.link!)![1]!).search).toBe(
      '?last=v3&pagination=keyset&per_page=2&sort=desc',
    );
  });

  it('When a page exactly ends the tags, then it has no Link; past the end, an empty page', async () => {
    const pages = await walk(`${base()}/tags?pagination=keyset&per_page=7`);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.names).toEqual(names);
    expect(pages[0]!.link).toBeNull();
    const past = await h.call('GET', `${base()}/tags?pagination=keyset&last=zzz`, { ns: p.ns });
    expect(past.body).toEqual([]);
    expect(past.headers.get('link')).toBeNull();
  });

  it('When `last` is given, then the page starts after it, whether or not it is a tag', async () => {
    const reply = await h.call('GET', `${base()}/tags?pagination=keyset&last=v0&per_page=2`, { ns: p.ns });
    expect(
      z
        .array(registryTagEntity)
        .parse(reply.body)
        .map((t) => t.name),
    ).toEqual(['v1', 'v10']);
    const down = await h.call('GET', `${base()}/tags?pagination=keyset&last=v1&sort=desc`, { ns: p.ns });
    expect(
      z
        .array(registryTagEntity)
        .parse(down.body)
        .map((t) => t.name),
    ).toEqual(['latest', 'a.b-c_d']);
  });

  it('When pagination is absent or not keyset, then offset pages are unchanged', async () => {
    for (const query of ['per_page=3', 'pagination=offset&per_page=3', 'pagination=other&per_page=3']) {
      const reply = await h.call('GET', `${base()}/tags?${query}`, { ns: p.ns });
      expect(
        z
          .array(registryTagEntity)
          .parse(reply.body)
          .map((t) => t.name),
      ).toEqual(names.slice(0, 3));
      expect(reply.headers.get('x-total')).toBe(String(names.length));
    }
  });

  it('When a guest pages the tags of a private project by keyset, then 403 as with offset pages', async () => {
    const reply = await h.call('GET', `${base()}/tags?pagination=keyset`, { ns: p.ns, as: GUEST });
    expect(reply.status).toBe(403);
  });
});
