import type { NamespaceContext, Principal } from '@gl/contracts';
import {
  DOMAIN_EVENT_TYPES,
  discussionEntity,
  issueEntity,
  mergeRequestEntity,
  noteEntity,
} from '@gl/contracts';
import { z } from 'zod';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, GUEST, OWNER, REPORTER, ROOT, STRANGER, useHarness } from '@gl/testing';

const notesOf = z.array(noteEntity);
const threadsOf = z.array(discussionEntity);

/**
 * Internal notes (lib/api/notes.rb `internal`, formerly `confidential`): Notes::BuildService keeps the flag
 * only for callers with `mark_note_as_internal` (Reporter and up) and makes replies in an internal thread
 * internal; NotePolicy lets only `read_internal_note` (Reporter and up, admins) read them — wherever notes
 * surface: notes, single notes, threads, their notes, and the user_notes_count of the issue.
 */
describe('Internal notes', () => {
  const h = useHarness(startDiscussionsHarness);

  /** A public project's issue with one public comment and one internal note written by a Reporter. */
  async function issueWithInternalNote() {
    const ns = projectNamespace({ visibility: 'public' });
    const issue = issueEntity.parse(
      (await h.call('POST', `/projects/${ns.id}/issues`, { ns, as: GUEST, json: { title: 'Bug' } })).body,
    );
    const p = `/projects/${ns.id}/issues/${issue.iid}`;
    const open = noteEntity.parse(
      (await h.call('POST', `${p}/notes`, { ns, as: GUEST, json: { body: 'public comment' } })).body,
    );
    const created = await h.call('POST', `${p}/notes`, {
      ns,
      as: REPORTER,
      json: { body: 'internal remark', internal: true },
    });
    expect(created.status).toBe(201);
    const internal = noteEntity.parse(created.body);
    return { ns, p, issue, open, internal };
  }

  const call = (ns: NamespaceContext, as: Principal | null) => ({ ns, as });

  it('When a Reporter writes internal: true, then the note says internal and confidential', async () => {
    const { internal, open } = await issueWithInternalNote();
    expect(internal).toMatchObject({ body: 'internal remark', internal: true, confidential: true });
    expect(open).toMatchObject({ internal: false, confidential: false });
  });

  it('When a Guest asks for internal: true, or a Reporter uses the deprecated confidential, then as GitLab decides', async () => {
    const { ns, p } = await issueWithInternalNote();
    const guest = await h.call('POST', `${p}/notes`, {
      ns,
      as: GUEST,
      json: { body: 'mine', internal: true },
    });
    expect(noteEntity.parse(guest.body)).toMatchObject({ internal: false, confidential: false });
    const deprecated = await h.call('POST', `${p}/notes`, {
      ns,
      as: REPORTER,
      form: { body: 'old client', confidential: 'true' },
    });
    expect(noteEntity.parse(deprecated.body)).toMatchObject({ internal: true, confidential: true });
  });

  it('When each role lists notes and threads, then internal notes only for Reporter and up', async () => {
    const { ns, p } = await issueWithInternalNote();
    const callers: [string, Principal, boolean][] = [
      ['outsider', STRANGER, false],
      ['guest (issue author)', GUEST, false],
      ['reporter', REPORTER, true],
      ['developer', DEVELOPER, true],
      ['admin', ROOT, true],
    ];
    for (const [name, as, sees] of callers) {
      const expected = sees ? ['public comment', 'internal remark'] : ['public comment'];
      const notes = await h.call('GET', `${p}/notes?sort=asc`, call(ns, as));
      expect([name, notesOf.parse(notes.body).map((n) => n.body)]).toEqual([name, expected]);
      expect([name, notes.headers.get('x-total')]).toEqual([name, String(expected.length)]);
      const threads = await h.call('GET', `${p}/discussions`, call(ns, as));
      const bodies = threadsOf.parse(threads.body).flatMap((t) => t.notes.map((n) => n.body));
      expect([name, bodies, threads.headers.get('x-total')]).toEqual([
        name,
        expected,
        String(expected.length),
      ]);
      const issue = issueEntity.parse((await h.call('GET', p, call(ns, as))).body);
      expect([name, issue.user_notes_count]).toEqual([name, expected.length]);
      const list = z
        .array(issueEntity)
        .parse((await h.call('GET', `/projects/${ns.id}/issues`, call(ns, as))).body);
      expect([name, list[0]!.user_notes_count]).toEqual([name, expected.length]);
    }
  });

  it('When a Guest asks for the internal note or its thread directly, then 404 as GitLab answers', async () => {
    const { ns, p, internal } = await issueWithInternalNote();
    const thread = threadsOf
      .parse((await h.call('GET', `${p}/discussions`, { ns, as: REPORTER })).body)
      .find((t) => t.notes[0]!.id === internal.id)!;
    const one = await h.call('GET', `${p}/notes/${internal.id}`, call(ns, GUEST));
    expect(one).toMatchObject({ status: 404, body: { message: '404 Note Not Found' } });
    const inThread = await h.call(
      'GET',
      `${p}/discussions/${thread.id}/notes/${internal.id}`,
      call(ns, GUEST),
    );
    expect(inThread).toMatchObject({ status: 404, body: { message: '404 Note Not Found' } });
    const discussion = await h.call('GET', `${p}/discussions/${thread.id}`, call(ns, GUEST));
    expect(discussion).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    const notes = await h.call('GET', `${p}/discussions/${thread.id}/notes`, call(ns, GUEST));
    expect(notes).toMatchObject({ status: 404, body: { message: '404 Notes Not Found' } });
    const reply = await h.call('POST', `${p}/discussions/${thread.id}/notes`, {
      ns,
      as: GUEST,
      json: { body: 'can I see?' },
    });
    expect(reply).toMatchObject({ status: 404, body: { message: '404 Discussion Not Found' } });
    const edit = await h.call('PUT', `${p}/notes/${internal.id}`, { ns, as: GUEST, json: { body: 'x' } });
    expect(edit).toMatchObject({ status: 403, body: { message: '403 Forbidden' } });
    const remove = await h.call('DELETE', `${p}/notes/${internal.id}`, call(ns, GUEST));
    expect(remove.status).toBe(403);
    const reporterReads = await h.call('GET', `${p}/notes/${internal.id}`, call(ns, REPORTER));
    expect(noteEntity.parse(reporterReads.body).body).toBe('internal remark');
  });

  it('When a Reporter replies in an internal thread, then the reply is internal too', async () => {
    const { ns, p, internal } = await issueWithInternalNote();
    const thread = threadsOf
      .parse((await h.call('GET', `${p}/discussions`, { ns, as: REPORTER })).body)
      .find((t) => t.notes[0]!.id === internal.id)!;
    const reply = await h.call('POST', `${p}/discussions/${thread.id}/notes`, {
      ns,
      as: DEVELOPER,
      json: { body: 'agreed' },
    });
    expect(noteEntity.parse(reply.body)).toMatchObject({
      body: 'agreed',
      internal: true,
      type: 'DiscussionNote',
    });
    const guestView = notesOf.parse((await h.call('GET', `${p}/notes`, call(ns, GUEST))).body);
    expect(guestView.map((n) => n.body)).toEqual(['public comment']);
  });

  it('When a thread is started with internal: true, then it is internal for a Reporter and public for a Guest who asked', async () => {
    const { ns, p } = await issueWithInternalNote();
    const started = await h.call('POST', `${p}/discussions`, {
      ns,
      as: REPORTER,
      json: { body: 'internal thread', internal: true },
    });
    expect(started.status).toBe(201);
    expect(discussionEntity.parse(started.body).notes[0]).toMatchObject({ internal: true });
    const guestAsked = await h.call('POST', `${p}/discussions`, {
      ns,
      as: GUEST,
      json: { body: 'guest thread', internal: true },
    });
    expect(discussionEntity.parse(guestAsked.body).notes[0]).toMatchObject({ internal: false });
    const guestView = threadsOf.parse((await h.call('GET', `${p}/discussions`, call(ns, GUEST))).body);
    expect(guestView.flatMap((t) => t.notes.map((n) => n.body))).toEqual(['public comment', 'guest thread']);
  });

  it('When an internal note is written on a merge request, then guests assigned to it still do not read it', async () => {
    const ns = projectNamespace({ visibility: 'private' });
    const mr = mergeRequestEntity.parse(
      (
        await h.call('POST', `/projects/${ns.id}/merge_requests`, {
          ns,
          as: DEVELOPER,
          json: { source_branch: 'f', target_branch: 'main', title: 'MR' },
        })
      ).body,
    );
    const p = `/projects/${ns.id}/merge_requests/${mr.iid}`;
    await h.call('PUT', p, { ns, as: DEVELOPER, json: { assignee_ids: [GUEST.id] } });
    await h.call('POST', `${p}/notes`, { ns, as: OWNER, json: { body: 'internal', internal: true } });
    await h.call('POST', `${p}/notes`, { ns, as: OWNER, json: { body: 'open' } });
    const guest = notesOf.parse((await h.call('GET', `${p}/notes`, call(ns, GUEST))).body);
    expect(guest.filter((n) => !n.system).map((n) => n.body)).toEqual(['open']);
    const owner = notesOf.parse((await h.call('GET', `${p}/notes`, call(ns, OWNER))).body);
    expect(owner.filter((n) => !n.system).map((n) => n.body)).toEqual(['open', 'internal']);
  });

  it('When an internal note is created, then note.created says so for the activity log', async () => {
    const { ns, issue, internal } = await issueWithInternalNote();
    const event = (await h.pendingEvents()).find(
      (e) =>
        e.type === DOMAIN_EVENT_TYPES.discussions.noteCreated &&
        e.projectId === ns.id &&
        (e.data as { noteId: number }).noteId === internal.id,
    );
    expect(event?.data).toMatchObject({
      noteableId: issue.id,
      audience: { internal: true, confidential: false, authorId: GUEST.id, assigneeIds: [] },
    });
  });
});
