import { discussionEntity, noteEntity } from '@gl/contracts';
import { z } from 'zod';
import { startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, GUEST, MAINTAINER, OWNER, REPORTER, ROOT, STRANGER, useHarness } from '@gl/testing';
import { noteableMaker, type Kind } from '../testing/noteable-maker';

const discussions = z.array(discussionEntity);

describe('Discussions API', () => {
  const h = useHarness(startDiscussionsHarness);
  const make = noteableMaker(h);

  describe.each<Kind>(['Issue', 'MergeRequest', 'Snippet', 'Epic', 'Commit'])('on a %s', (kind) => {
    // The lowest role that reads the noteable of a private project: merge requests and code need Reporter.
    const lowest = kind === 'MergeRequest' || kind === 'Commit' ? REPORTER : GUEST;
    it('When a thread is started, then 201 with a 40-hex id, individual_note false and one DiscussionNote', async () => {
      const n = await make(kind);
      const res = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: { body: 'First thought' },
      });
      expect(res.status).toBe(201);
      const thread = discussionEntity.parse(res.body);
      expect(thread.id).toMatch(/^[0-9a-f]{40}$/);
      expect(thread.individual_note).toBe(false);
      expect(thread.notes).toHaveLength(1);
      expect(thread.notes[0]).toMatchObject({
        type: 'DiscussionNote',
        body: 'First thought',
        system: false,
        noteable_type: kind,
        noteable_id: n.noteableId,
        noteable_iid: n.noteableIid,
        author: { id: OWNER.id, username: OWNER.username },
        resolvable: kind === 'MergeRequest',
        attachment: null,
      });
    });

    it('When threads are listed, then oldest first, 20 per page with pagination headers', async () => {
      const n = await make(kind);
      for (let i = 0; i < 22; i++) {
        await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: { body: `n${i}` } });
      }
      const page1 = await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns });
      expect(page1.status).toBe(200);
      const list = discussions.parse(page1.body);
      expect(list).toHaveLength(20);
      expect(list[0]!.notes[0]!.body).toBe('n0');
      expect(page1.headers.get('x-total')).toBe('22');
      expect(page1.headers.get('x-next-page')).toBe('2');
      const page2 = discussions.parse(
        (await h.call('GET', `${n.prefix}/discussions?page=2`, { ns: n.ns })).body,
      );
      expect(page2.map((d) => d.notes[0]!.body)).toEqual(['n20', 'n21']);
    });

    it('When a thread is read, replied to, and its notes read, then notes come oldest first', async () => {
      const n = await make(kind);
      const thread = discussionEntity.parse(
        (await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: { body: 'Q' } })).body,
      );
      const reply = await h.call('POST', `${n.prefix}/discussions/${thread.id}/notes`, {
        ns: n.ns,
        as: lowest,
        json: { body: 'A' },
      });
      expect(reply.status).toBe(201);
      expect(noteEntity.parse(reply.body)).toMatchObject({
        type: 'DiscussionNote',
        body: 'A',
        author: { id: lowest.id },
      });
      const read = discussionEntity.parse(
        (await h.call('GET', `${n.prefix}/discussions/${thread.id}`, { ns: n.ns })).body,
      );
      expect(read.notes.map((x) => x.body)).toEqual(['Q', 'A']);
      const notesUrl = `${n.prefix}/discussions/${thread.id}/notes`;
      const all = await h.call('GET', notesUrl, { ns: n.ns });
      const notes = z.array(noteEntity).parse(all.body);
      expect(notes.map((x) => x.body)).toEqual(['Q', 'A']);
      expect([all.headers.get('x-total'), all.headers.get('x-page'), all.headers.get('x-per-page')]).toEqual([
        '2',
        '1',
        '20',
      ]);
      const second = await h.call('GET', `${notesUrl}?per_page=1&page=2`, { ns: n.ns });
      expect(
        z
          .array(noteEntity)
          .parse(second.body)
          .map((x) => x.body),
      ).toEqual(['A']);
      expect(second.headers.get('x-total-pages')).toBe('2');
      expect(second.headers.get('x-prev-page')).toBe('1');
      expect(second.headers.get('link')).toContain('rel="first"');
      expect((await h.call('GET', `${notesUrl}?per_page=0`, { ns: n.ns })).status).toBe(400);
      const one = await h.call('GET', `${n.prefix}/discussions/${thread.id}/notes/${notes[1]!.id}`, {
        ns: n.ns,
      });
      expect(noteEntity.parse(one.body).body).toBe('A');
    });

    it('When a note is edited by its author, then 200; by another non-maintainer, then 403; by a maintainer, then 200', async () => {
      const n = await make(kind);
      const thread = discussionEntity.parse(
        (await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, as: lowest, json: { body: 'typo' } }))
          .body,
      );
      const url = `${n.prefix}/discussions/${thread.id}/notes/${thread.notes[0]!.id}`;
      const own = await h.call('PUT', url, { ns: n.ns, as: lowest, json: { body: 'fixed' } });
      expect(noteEntity.parse(own.body).body).toBe('fixed');
      const other = await h.call('PUT', url, { ns: n.ns, as: DEVELOPER, json: { body: 'hijack' } });
      expect(other).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
      const maintainer = await h.call('PUT', url, { ns: n.ns, as: MAINTAINER, json: { body: 'moderated' } });
      expect(noteEntity.parse(maintainer.body).body).toBe('moderated');
    });

    it('When a note is deleted, then 204 with no body; a second delete is 404', async () => {
      const n = await make(kind);
      const thread = discussionEntity.parse(
        (await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: { body: 'bye' } })).body,
      );
      const url = `${n.prefix}/discussions/${thread.id}/notes/${thread.notes[0]!.id}`;
      const forbidden = await h.call('DELETE', url, { ns: n.ns, as: DEVELOPER });
      expect(forbidden.status).toBe(403);
      const deleted = await h.call('DELETE', url, { ns: n.ns });
      expect(deleted).toMatchObject({ status: 204, body: null });
      const again = await h.call('DELETE', url, { ns: n.ns });
      expect(again).toMatchObject({ status: 404, body: { message: '404 Not found' } });
      const gone = await h.call('GET', `${n.prefix}/discussions/${thread.id}`, { ns: n.ns });
      expect(gone).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    });

    it('When the body is missing, empty or too long, then 400 as GitLab', async () => {
      const n = await make(kind);
      const missing = await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: {} });
      expect(missing).toMatchObject({ status: 400, body: { error: 'body is missing' } });
      const empty = await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: { body: '' } });
      expect(empty).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Note {:note=>["can\'t be blank"]}' },
      });
      const long = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: { body: 'x'.repeat(1_000_001) },
      });
      expect(long).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Note {:note=>["is too long (maximum is 1000000 characters)"]}' },
      });
      const limit = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: { body: 'x'.repeat(1_000_000) },
      });
      expect(limit.status).toBe(201);
    });

    it('When the noteable or the thread does not exist, then 404 "<Type> Not Found" / "Discussion Not Found"', async () => {
      const n = await make(kind);
      const base = n.prefix.replace(/\/[^/]+$/, kind === 'Commit' ? `/${'f'.repeat(40)}` : '/999999');
      const res = await h.call('GET', `${base}/discussions`, { ns: n.ns });
      expect(res).toMatchObject({ status: 404, body: { message: `404 ${kind} Not Found` } });
      const thread = await h.call('GET', `${n.prefix}/discussions/${'a'.repeat(40)}`, { ns: n.ns });
      expect(thread).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
      const reply = await h.call('POST', `${n.prefix}/discussions/${'a'.repeat(40)}/notes`, {
        ns: n.ns,
        json: { body: 'x' },
      });
      expect(reply).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
      const notes = await h.call('GET', `${n.prefix}/discussions/${'a'.repeat(40)}/notes`, { ns: n.ns });
      expect(notes).toMatchObject({ status: 404, body: { message: '404 Notes Not Found' } });
    });

    it('When a non-member reads or comments on a private namespace, then 404; on a public one, then any user may comment', async () => {
      const n = await make(kind);
      const hidden = await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns, as: STRANGER });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual({ message: `404 ${kind === 'Epic' ? 'Group' : 'Project'} Not Found` });
      const anonymous = await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns, as: null });
      expect(anonymous.status).toBe(401);
      const pub = await make(kind, 'public');
      const comment = await h.call('POST', `${pub.prefix}/discussions`, {
        ns: pub.ns,
        as: STRANGER,
        json: { body: 'hi' },
      });
      expect(comment.status).toBe(201);
    });

    it('When an owner or admin gives created_at, then it is kept; from a developer it is ignored', async () => {
      const n = await make(kind);
      const when = '2020-01-02T03:04:05.000Z';
      const owner = discussionEntity.parse(
        (
          await h.call('POST', `${n.prefix}/discussions`, {
            ns: n.ns,
            json: { body: 'old', created_at: when },
          })
        ).body,
      );
      expect(owner.notes[0]).toMatchObject({ created_at: when, updated_at: when });
      const admin = discussionEntity.parse(
        (
          await h.call('POST', `${n.prefix}/discussions`, {
            ns: n.ns,
            as: ROOT,
            json: { body: 'a', created_at: when },
          })
        ).body,
      );
      expect(admin.notes[0]!.created_at).toBe(when);
      const dev = discussionEntity.parse(
        (
          await h.call('POST', `${n.prefix}/discussions`, {
            ns: n.ns,
            as: DEVELOPER,
            json: { body: 'b', created_at: when },
          })
        ).body,
      );
      expect(dev.notes[0]!.created_at).not.toBe(when);
    });
  });

  describe.each<Kind>(['Issue', 'MergeRequest', 'Epic'])('single comments on a %s', (kind) => {
    it('When a reply is added to a single comment, then it becomes a thread with the same id and DiscussionNote type', async () => {
      const n = await make(kind);
      const single = noteEntity.parse(
        (await h.call('POST', `${n.prefix}/notes`, { ns: n.ns, json: { body: 'single' } })).body,
      );
      expect(single.type).toBeNull();
      const [before] = discussions.parse((await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns })).body);
      expect(before).toMatchObject({ individual_note: true, notes: [{ id: single.id, type: null }] });
      const reply = await h.call('POST', `${n.prefix}/discussions/${before!.id}/notes`, {
        ns: n.ns,
        json: { body: 'r' },
      });
      expect(reply.status).toBe(201);
      expect(noteEntity.parse(reply.body).type).toBe('DiscussionNote');
      const after = discussionEntity.parse(
        (await h.call('GET', `${n.prefix}/discussions/${before!.id}`, { ns: n.ns })).body,
      );
      expect(after.individual_note).toBe(false);
      expect(after.notes.map((x) => [x.id, x.type])).toEqual([
        [single.id, 'DiscussionNote'],
        [noteEntity.parse(reply.body).id, 'DiscussionNote'],
      ]);
    });
  });

  it('When a system note on an issue is replied to, then it becomes a thread too', async () => {
    const n = await make('Issue');
    await h.call('PUT', n.prefix, { ns: n.ns, json: { state_event: 'close' } });
    const [system] = discussions.parse((await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns })).body);
    const reply = await h.call('POST', `${n.prefix}/discussions/${system!.id}/notes`, {
      ns: n.ns,
      json: { body: 'why?' },
    });
    expect(reply.status).toBe(201);
    const thread = discussionEntity.parse(
      (await h.call('GET', `${n.prefix}/discussions/${system!.id}`, { ns: n.ns })).body,
    );
    expect(thread.notes.map((x) => [x.body, x.system])).toEqual([
      ['closed', true],
      ['why?', false],
    ]);
  });

  it('When a reply is added to a single comment on a snippet, then 400 "Discussion can not be replied to."', async () => {
    const n = await make('Snippet');
    await h.call('POST', `${n.prefix}/notes`, { ns: n.ns, json: { body: 'single' } });
    const [single] = discussions.parse((await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns })).body);
    expect(single!.individual_note).toBe(true);
    const res = await h.call('POST', `${n.prefix}/discussions/${single!.id}/notes`, {
      ns: n.ns,
      json: { body: 'x' },
    });
    expect(res).toMatchObject({
      status: 400,
      body: { message: '400 Bad request - Discussion can not be replied to.' },
    });
  });

  it('When a system note is edited or deleted, even by an admin, then 403', async () => {
    const n = await make('Issue');
    await h.call('PUT', n.prefix, { ns: n.ns, json: { state_event: 'close' } });
    const [system] = discussions.parse((await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns })).body);
    const url = `${n.prefix}/discussions/${system!.id}/notes/${system!.notes[0]!.id}`;
    expect((await h.call('PUT', url, { ns: n.ns, as: ROOT, json: { body: 'x' } })).status).toBe(403);
    expect((await h.call('DELETE', url, { ns: n.ns, as: ROOT })).status).toBe(403);
  });

  it('When a note changed after If-Unmodified-Since is deleted, then 412 and it stays', async () => {
    const n = await make('Issue');
    const note = noteEntity.parse(
      (await h.call('POST', `${n.prefix}/notes`, { ns: n.ns, json: { body: 'x' } })).body,
    );
    const url = `${n.prefix}/notes/${note.id}`;
    const stale = await h.call('DELETE', url, {
      ns: n.ns,
      headers: { 'if-unmodified-since': new Date(Date.parse(note.updated_at) - 60_000).toUTCString() },
    });
    expect(stale).toMatchObject({ status: 412, body: { message: '412 Precondition Failed' } });
    const fresh = await h.call('DELETE', url, {
      ns: n.ns,
      headers: { 'if-unmodified-since': new Date(Date.parse(note.updated_at) + 60_000).toUTCString() },
    });
    expect(fresh.status).toBe(204);
  });

  describe('Notes API', () => {
    it('When notes are listed, then newest first by default, asc on request, with system notes', async () => {
      const n = await make('Issue');
      await h.call('POST', `${n.prefix}/notes`, { ns: n.ns, json: { body: 'one' } });
      await h.call('PUT', n.prefix, { ns: n.ns, json: { state_event: 'close' } });
      await h.call('POST', `${n.prefix}/notes`, { ns: n.ns, json: { body: 'two' } });
      const desc = z.array(noteEntity).parse((await h.call('GET', `${n.prefix}/notes`, { ns: n.ns })).body);
      expect(desc.map((x) => x.body)).toEqual(['two', 'closed', 'one']);
      const asc = z
        .array(noteEntity)
        .parse((await h.call('GET', `${n.prefix}/notes?sort=asc`, { ns: n.ns })).body);
      expect(asc.map((x) => x.body)).toEqual(['one', 'closed', 'two']);
      const comments = z
        .array(noteEntity)
        .parse((await h.call('GET', `${n.prefix}/notes?activity_filter=only_activity`, { ns: n.ns })).body);
      expect(comments.map((x) => x.body)).toEqual(['closed']);
    });

    it('When a single comment is read, edited and deleted, then 200, 200 and 204; unknown ids are 404 "404 Not found"', async () => {
      const n = await make('MergeRequest');
      const note = noteEntity.parse(
        (await h.call('POST', `${n.prefix}/notes`, { ns: n.ns, json: { body: 'c' } })).body,
      );
      expect(note).toMatchObject({ type: null, noteable_type: 'MergeRequest', resolvable: false });
      const url = `${n.prefix}/notes/${note.id}`;
      expect(noteEntity.parse((await h.call('GET', url, { ns: n.ns })).body).body).toBe('c');
      expect(noteEntity.parse((await h.call('PUT', url, { ns: n.ns, json: { body: 'd' } })).body).body).toBe(
        'd',
      );
      const blank = await h.call('PUT', url, { ns: n.ns, json: { body: '  ' } });
      expect(blank).toMatchObject({ status: 400, body: { error: 'body is empty' } });
      const none = await h.call('PUT', url, { ns: n.ns, json: {} });
      expect(noteEntity.parse(none.body).body).toBe('d');
      expect((await h.call('DELETE', url, { ns: n.ns })).status).toBe(204);
      expect(await h.call('GET', url, { ns: n.ns })).toMatchObject({
        status: 404,
        body: { message: '404 Not found' },
      });
    });
  });

  it('When epics are addressed on the free tier, then discussions answer 404 "404 Epic Not Found"', async () => {
    const n = await make('Epic');
    const res = await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns, tier: 'free' });
    expect(res).toMatchObject({ status: 404, body: { message: '404 Epic Not Found' } });
  });
});
