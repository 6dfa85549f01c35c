import type { NamespaceContext, Principal } from '@gl/contracts';
import { awardEmojiEntity, issueEntity, mergeRequestEntity, noteEntity } from '@gl/contracts';
import { z } from 'zod';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, GUEST, OWNER, REPORTER, ROOT, STRANGER, useHarness } from '@gl/testing';

const awardsOf = z.array(awardEmojiEntity);

/**
 * Award emoji (lib/api/award_emoji.rb, AwardEmojis::AddService, the AwardEmoji model): reading needs the
 * awardable, awarding a signed-in user who reads it, the name a known emoji (aliases stored by their
 * canonical name), one award per user, name and awardable; only its user or an admin deletes one.
 */
describe('Award emoji', () => {
  const h = useHarness(startDiscussionsHarness);

  async function issueIn(ns: NamespaceContext, json: Record<string, unknown> = {}) {
    const res = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'Bug', ...json } });
    expect(res.status).toBe(201);
    return issueEntity.parse(res.body);
  }

  const award = (ns: NamespaceContext, path: string, as: Principal | null, name: unknown) =>
    h.call('POST', `${path}/award_emoji`, { ns, as, json: { name } });

  it('When users award an issue, then GitLab’s entity, the list with its pages, one award and the votes', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;

    const up = await award(ns, p, DEVELOPER, '+1');
    expect(up.status).toBe(201);
    const entity = awardEmojiEntity.parse(up.body);
    expect(entity).toMatchObject({
      name: 'thumbsup',
      user: { id: DEVELOPER.id, username: DEVELOPER.username },
      awardable_id: issue.id,
      awardable_type: 'Issue',
      url: null,
    });
    expect(Object.keys(up.body as object).sort()).toEqual(
      ['awardable_id', 'awardable_type', 'created_at', 'id', 'name', 'updated_at', 'url', 'user'].sort(),
    );
    expect((await award(ns, p, GUEST, 'thumbsup')).status).toBe(201);
    expect((await award(ns, p, STRANGER, ':thumbsdown:')).status).toBe(201);
    expect((await award(ns, p, GUEST, 'tada')).status).toBe(201);

    const page1 = await h.call('GET', `${p}/award_emoji?per_page=3`, { ns, as: null });
    expect(page1.status).toBe(200);
    expect(page1.headers.get('x-total')).toBe('4');
    expect(page1.headers.get('x-total-pages')).toBe('2');
    expect(page1.headers.get('x-next-page')).toBe('2');
    expect(awardsOf.parse(page1.body).map((a) => a.name)).toEqual(['thumbsup', 'thumbsup', 'thumbsdown']);
    const page2 = await h.call('GET', `${p}/award_emoji?per_page=3&page=2`, { ns, as: GUEST });
    expect(awardsOf.parse(page2.body).map((a) => a.name)).toEqual(['tada']);

    const one = await h.call('GET', `${p}/award_emoji/${entity.id}`, { ns, as: null });
    expect(one.status).toBe(200);
    expect(awardEmojiEntity.parse(one.body)).toEqual(entity);

    const shown = issueEntity.parse((await h.call('GET', p, { ns, as: GUEST })).body);
    expect([shown.upvotes, shown.downvotes]).toEqual([2, 1]);
    const listed = z
      .array(issueEntity)
      .parse((await h.call('GET', `/projects/${ns.id}/issues`, { ns })).body);
    expect(listed.find((i) => i.id === issue.id)).toMatchObject({ upvotes: 2, downvotes: 1 });
  });

  it('When a user gives the same emoji twice, an unknown one or none, then GitLab’s 404 and 400 answers', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    expect((await award(ns, p, GUEST, 'rocket')).status).toBe(201);

    const again = await award(ns, p, GUEST, 'rocket');
    expect([again.status, again.body]).toEqual([
      404,
      { message: '404 Award Emoji Name has already been taken Not Found' },
    ]);
    // thumbsup through its alias is the same emoji.
    expect((await award(ns, p, GUEST, 'thumbsup')).status).toBe(201);
    expect((await award(ns, p, GUEST, '+1')).status).toBe(404);
    // Another user may give the same emoji.
    expect((await award(ns, p, REPORTER, 'rocket')).status).toBe(201);

    const unknown = await award(ns, p, GUEST, 'no_such_emoji');
    expect([unknown.status, unknown.body]).toEqual([
      404,
      { message: '404 Award Emoji Name is not a valid emoji name Not Found' },
    ]);
    const blank = await award(ns, p, GUEST, '');
    expect([blank.status, blank.body]).toEqual([
      404,
      { message: "404 Award Emoji Name can't be blank and Name is not a valid emoji name Not Found" },
    ]);
    const missing = await h.call('POST', `${p}/award_emoji`, { ns, as: GUEST, json: {} });
    expect([missing.status, missing.body]).toEqual([400, { error: 'name is missing' }]);
  });

  it('When anonymous callers write, strangers read a private project or a guest a confidential issue, then 401 and 404', async () => {
    const open = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(open);
    const p = `/projects/${open.id}/issues/${issue.iid}`;
    expect((await award(open, p, null, 'smile')).status).toBe(401);

    const closed = projectNamespace({ visibility: 'private' });
    const hidden = await issueIn(closed);
    const q = `/projects/${closed.id}/issues/${hidden.iid}`;
    const stranger = await h.call('GET', `${q}/award_emoji`, { ns: closed, as: STRANGER });
    expect([stranger.status, stranger.body]).toEqual([404, { message: '404 Project Not Found' }]);
    expect((await award(closed, q, STRANGER, 'smile')).status).toBe(404);

    const secret = await issueIn(open, { confidential: true });
    const s = `/projects/${open.id}/issues/${secret.iid}`;
    expect((await award(open, s, REPORTER, 'eyes')).status).toBe(201);
    const guest = await h.call('GET', `${s}/award_emoji`, { ns: open, as: GUEST });
    expect([guest.status, guest.body]).toEqual([404, { message: '404 Issue Not Found' }]);
    expect((await award(open, s, GUEST, 'eyes')).status).toBe(404);

    const nowhere = await h.call('GET', `/projects/${open.id}/issues/999/award_emoji`, {
      ns: open,
      as: GUEST,
    });
    expect([nowhere.status, nowhere.body]).toEqual([404, { message: '404 Issue Not Found' }]);
    const noAward = await h.call('GET', `${p}/award_emoji/999999`, { ns: open, as: GUEST });
    expect([noAward.status, noAward.body]).toEqual([404, { message: '404 Not found' }]);
  });

  it("When someone deletes another user's award, then 401 unless admin; its user or an admin deletes it", async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const mine = awardEmojiEntity.parse((await award(ns, p, GUEST, 'thumbsup')).body);
    const theirs = awardEmojiEntity.parse((await award(ns, p, DEVELOPER, 'thumbsdown')).body);

    const other = await h.call('DELETE', `${p}/award_emoji/${mine.id}`, { ns, as: OWNER });
    expect([other.status, other.body]).toEqual([401, { message: '401 Unauthorized' }]);
    expect((await h.call('DELETE', `${p}/award_emoji/${mine.id}`, { ns, as: null })).status).toBe(401);
    expect((await h.call('DELETE', `${p}/award_emoji/${mine.id}`, { ns, as: GUEST })).status).toBe(204);
    expect((await h.call('DELETE', `${p}/award_emoji/${theirs.id}`, { ns, as: ROOT })).status).toBe(204);
    const gone = await h.call('DELETE', `${p}/award_emoji/${mine.id}`, { ns, as: GUEST });
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }]);

    const shown = issueEntity.parse((await h.call('GET', p, { ns, as: GUEST })).body);
    expect([shown.upvotes, shown.downvotes]).toEqual([0, 0]);
    // Awards of another awardable are not found through this one.
    const other2 = await issueIn(ns);
    const kept = awardEmojiEntity.parse((await award(ns, p, GUEST, 'heart')).body);
    const q = `/projects/${ns.id}/issues/${other2.iid}`;
    expect((await h.call('GET', `${q}/award_emoji/${kept.id}`, { ns, as: GUEST })).status).toBe(404);
  });

  it('When users award notes, merge requests and snippets, then each is its own awardable', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = await issueIn(ns);
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const note = noteEntity.parse(
      (await h.call('POST', `${p}/notes`, { ns, as: GUEST, json: { body: 'hello' } })).body,
    );
    const onNote = await award(ns, `${p}/notes/${note.id}`, DEVELOPER, 'heart');
    expect(onNote.status).toBe(201);
    expect(awardEmojiEntity.parse(onNote.body)).toMatchObject({
      awardable_id: note.id,
      awardable_type: 'Note',
    });
    const noteList = await h.call('GET', `${p}/notes/${note.id}/award_emoji`, { ns, as: GUEST });
    expect(awardsOf.parse(noteList.body).map((a) => a.name)).toEqual(['heart']);
    expect(awardsOf.parse((await h.call('GET', `${p}/award_emoji`, { ns, as: GUEST })).body)).toEqual([]);
    const noNote = await h.call('GET', `${p}/notes/999999/award_emoji`, { ns, as: GUEST });
    expect([noNote.status, noNote.body]).toEqual([404, { message: '404 Not found' }]);

    // An internal note is not an awardable a Guest reads.
    const internal = noteEntity.parse(
      (await h.call('POST', `${p}/notes`, { ns, as: REPORTER, json: { body: 'psst', internal: true } })).body,
    );
    const hidden = await award(ns, `${p}/notes/${internal.id}`, GUEST, 'eyes');
    expect([hidden.status, hidden.body]).toEqual([404, { message: '404 Award Emoji Not Found' }]);

    const mrRes = await h.call('POST', `/projects/${ns.id}/merge_requests`, {
      ns,
      json: { source_branch: 'feature', target_branch: 'main', title: 'MR' },
    });
    const mr = mergeRequestEntity.parse(mrRes.body);
    const m = `/projects/${ns.id}/merge_requests/${mr.iid}`;
    const onMr = awardEmojiEntity.parse((await award(ns, m, GUEST, 'thumbsdown')).body);
    expect(onMr).toMatchObject({ awardable_id: mr.id, awardable_type: 'MergeRequest' });
    const shownMr = mergeRequestEntity.parse((await h.call('GET', m, { ns, as: GUEST })).body);
    expect([shownMr.upvotes, shownMr.downvotes]).toEqual([0, 1]);

    const snippetRes = await h.call('POST', `/projects/${ns.id}/snippets`, {
      ns,
      json: { title: 'S', file_name: 'a.txt', content: 'hello', visibility: 'public' },
    });
    const snippet = z.object({ id: z.number() }).parse(snippetRes.body);
    const onSnippet = await award(ns, `/projects/${ns.id}/snippets/${snippet.id}`, GUEST, 'blowfish_unknown');
    expect(onSnippet.status).toBe(404);
    const ok = awardEmojiEntity.parse(
      (await award(ns, `/projects/${ns.id}/snippets/${snippet.id}`, GUEST, 'sparkles')).body,
    );
    expect(ok).toMatchObject({ awardable_id: snippet.id, awardable_type: 'Snippet' });
  });
});
