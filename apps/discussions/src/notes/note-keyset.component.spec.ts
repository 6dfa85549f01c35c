import { z } from 'zod';
import { noteEntity, type Principal } from '@gl/contracts';
import { GUEST, OWNER, REPORTER, useHarness } from '@gl/testing';
import { startDiscussionsHarness } from '../testing/discussions.harness';
import { noteableMaker, type Kind, type Noteable } from '../testing/noteable-maker';
import { noteKeysetIndexesMigration } from '../migrations/note-keyset-indexes';

const notesOf = z.array(noteEntity);

/**
 * Keyset pages of the Notes API's lists (`pagination=keyset`, beyond GitLab, which pages notes by offset)
 * on every noteable with notes: each note once in the offset list's order, `Link` rel="next" until the
 * last page with the filters kept, internal notes only for who reads them.
 */
describe('Keyset pages of notes', () => {
  const h = useHarness(startDiscussionsHarness);
  const make = noteableMaker(h);

  /** A public noteable with five comments, the second edited later, and one internal note. */
  async function noteableWithNotes(
    kind: Kind,
  ): Promise<Noteable & { internalId: number; isInternal: boolean }> {
    const n = await make(kind, 'public');
    const ids: number[] = [];
    for (let i = 1; i <= 5; i++) {
      const res = await h.call('POST', `${n.prefix}/notes`, { ns: n.ns, as: OWNER, json: { body: `n${i}` } });
      expect(res.status).toBe(201);
      ids.push(noteEntity.parse(res.body).id);
    }
    const edited = await h.call('PUT', `${n.prefix}/notes/${ids[1]}`, {
      ns: n.ns,
      as: OWNER,
      json: { body: 'n2b' },
    });
    expect(edited.status).toBe(200);
    const internal = await h.call('POST', `${n.prefix}/notes`, {
      ns: n.ns,
      as: REPORTER,
      json: { body: 'secret', internal: true },
    });
    expect(internal.status).toBe(201);
    const note = noteEntity.parse(internal.body);
    // Snippets have no internal notes (Notes::BuildService keeps the flag on issues, merge requests, epics).
    return { ...n, internalId: note.id, isInternal: note.internal };
  }

  async function walk(n: Noteable, first: string, as: Principal) {
    const pages: { ids: number[]; link: string | null }[] = [];
    let path: string | null = first;
    for (let guard = 0; path !== null && guard < 30; guard++) {
      const res = await h.call('GET', path, { ns: n.ns, as });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-total')).toBeNull();
      const link = res.headers.get('link');
      pages.push({ ids: notesOf.parse(res.body).map((note) => note.id), link });
      const next = link === null ? null : new URL(link.slice(1, link.indexOf('>')));
      path = next === null ? null : `${next.pathname.replace(/^\/api\/v4/, '')}${next.search}`;
    }
    return pages;
  }

  async function offsetIds(n: Noteable, query: string, as: Principal) {
    const res = await h.call('GET', `${n.prefix}/notes?per_page=100&${query}`, { ns: n.ns, as });
    expect(res.status).toBe(200);
    return notesOf.parse(res.body).map((note) => note.id);
  }

  describe.each<Kind>(['Issue', 'MergeRequest', 'Snippet', 'Epic'])('on a %s', (kind) => {
    it('When its notes are paged by keyset in each order, then each once in order over 3+ pages, filters kept', async () => {
      const n = await noteableWithNotes(kind);
      for (const order of ['created_at', 'updated_at', 'id']) {
        for (const sort of ['asc', 'desc']) {
          const query = `activity_filter=only_comments&order_by=${order}&sort=${sort}`;
          const pages = await walk(n, `${n.prefix}/notes?pagination=keyset&per_page=2&${query}`, OWNER);
          expect(pages.map((p) => p.ids.length)).toEqual([2, 2, 2]);
          expect(pages.at(-1)!.link).toBeNull();
          for (const page of pages.slice(0, -1)) {
            expect(page.link).toMatch(/; rel="next"$/);
            expect(page.link).toContain('activity_filter=only_comments');
            expect(page.link).toContain(`order_by=${order}`);
          }
          const ids = pages.flatMap((p) => p.ids);
          const expected =
            order === 'id'
              ? [...ids].sort((a, b) => (sort === 'asc' ? a - b : b - a))
              : await offsetIds(n, `activity_filter=only_comments&order_by=${order}&sort=${sort}`, OWNER);
          expect({ order, sort, ids }).toEqual({ order, sort, ids: expected });
          expect(new Set(ids).size).toBe(6);
        }
      }
    });

    it('When a Guest pages the notes, then internal notes are left out', async () => {
      const n = await noteableWithNotes(kind);
      const pages = await walk(n, `${n.prefix}/notes?pagination=keyset&per_page=2&sort=asc`, GUEST);
      const ids = pages.flatMap((p) => p.ids);
      if (n.isInternal) expect(ids).not.toContain(n.internalId);
      else expect(ids).toContain(n.internalId);
      expect(ids).toEqual(await offsetIds(n, 'sort=asc', GUEST));
    });
  });

  it('When the cursor was not written here or the order has no keyset, then 400; id without keyset is 400', async () => {
    const n = await noteableWithNotes('Issue');
    const get = (query: string) => h.call('GET', `${n.prefix}/notes?${query}`, { ns: n.ns, as: OWNER });
    const encoded = (json: string) => Buffer.from(json).toString('base64url');
    for (const cursor of [
      '***',
      encoded('{"id":"1"}'),
      encoded('{"updated_at":"2024-01-01","id":"1","_kd":"n"}'),
    ]) {
      const res = await get(`pagination=keyset&order_by=updated_at&cursor=${cursor}`);
      expect([res.status, res.body]).toEqual([400, { error: 'cursor is invalid' }]);
    }
    const unknown = await get('pagination=keyset&order_by=title');
    expect([unknown.status, unknown.body]).toEqual([400, { error: 'order_by does not have a valid value' }]);
    const byId = await get('order_by=id');
    expect([byId.status, byId.body]).toEqual([400, { error: 'order_by does not have a valid value' }]);
  });

  it('When migration 12 runs (twice), then the keyset indexes exist and the one they replace is gone', async () => {
    const notes = h.runtime.connection.collection('notes');
    await notes.createIndex({ noteableType: 1, noteableId: 1, createdAt: 1 });
    await noteKeysetIndexesMigration(12).up(h.runtime.connection, h.runtime.logger);
    await noteKeysetIndexesMigration(12).up(h.runtime.connection, h.runtime.logger);
    const names = (await notes.indexes()).map((index) => index.name);
    expect(names).not.toContain('noteableType_1_noteableId_1_createdAt_1');
    expect(names).toEqual(
      expect.arrayContaining([
        'noteableType_1_noteableId_1_createdAt_1__id_1_system_1_internal_1',
        'noteableType_1_noteableId_1_updatedAt_1__id_1_system_1_internal_1',
        'noteableType_1_noteableId_1__id_1_system_1_internal_1',
      ]),
    );
  });
});
