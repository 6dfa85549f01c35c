import { discussionEntity, noteEntity } from '@gl/contracts';
import { z } from 'zod';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';
import { DEVELOPER, OWNER, REPORTER, useHarness } from '@gl/testing';
import { noteableMaker } from '../testing/noteable-maker';

const discussions = z.array(discussionEntity);

describe('Discussions API: resolving threads and diff notes', () => {
  const h = useHarness(startDiscussionsHarness);
  const make = noteableMaker(h);

  describe('Merge request resolution and diff notes', () => {
    const position = {
      base_sha: 'a'.repeat(40),
      start_sha: 'b'.repeat(40),
      head_sha: 'c'.repeat(40),
      position_type: 'text',
      new_path: 'app.rb',
      old_path: 'app.rb',
      new_line: 12,
    };

    it('When a thread is resolved and unresolved, then every note shows resolved, resolved_by and resolved_at', async () => {
      const n = await make('MergeRequest');
      const thread = discussionEntity.parse(
        (await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: { body: 'fix?' } })).body,
      );
      expect(thread).toMatchObject({ resolvable: true, resolved: false });
      await h.call('POST', `${n.prefix}/discussions/${thread.id}/notes`, { ns: n.ns, json: { body: 'and' } });
      const resolved = await h.call('PUT', `${n.prefix}/discussions/${thread.id}?resolved=true`, {
        ns: n.ns,
        as: DEVELOPER,
      });
      expect(resolved.status).toBe(200);
      const r = discussionEntity.parse(resolved.body);
      expect(r.resolved).toBe(true);
      for (const note of r.notes) {
        expect(note).toMatchObject({ resolvable: true, resolved: true, resolved_by: { id: DEVELOPER.id } });
        expect(note.resolved_at).toEqual(expect.any(String));
      }
      const reply = noteEntity.parse(
        (
          await h.call('POST', `${n.prefix}/discussions/${thread.id}/notes`, {
            ns: n.ns,
            json: { body: 'late' },
          })
        ).body,
      );
      expect(reply.resolved).toBe(true);
      const unresolved = discussionEntity.parse(
        (await h.call('PUT', `${n.prefix}/discussions/${thread.id}`, { ns: n.ns, json: { resolved: false } }))
          .body,
      );
      expect(unresolved.resolved).toBe(false);
      expect(
        unresolved.notes.every(
          (x) => x.resolved === false && x.resolved_by === null && x.resolved_at === null,
        ),
      ).toBe(true);
    });

    it('When resolution is asked without resolved, by a reporter, or on a single comment, then 400, 403 and 403', async () => {
      const n = await make('MergeRequest');
      const thread = discussionEntity.parse(
        (await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: { body: 'x' } })).body,
      );
      const missing = await h.call('PUT', `${n.prefix}/discussions/${thread.id}`, { ns: n.ns, json: {} });
      expect(missing).toMatchObject({ status: 400, body: { error: 'resolved is missing' } });
      const reporter = await h.call('PUT', `${n.prefix}/discussions/${thread.id}?resolved=true`, {
        ns: n.ns,
        as: REPORTER,
      });
      expect(reporter.status).toBe(403);
      await h.call('POST', `${n.prefix}/notes`, { ns: n.ns, json: { body: 'single' } });
      const single = discussions.parse(
        (await h.call('GET', `${n.prefix}/discussions`, { ns: n.ns })).body,
      )[1]!;
      const res = await h.call('PUT', `${n.prefix}/discussions/${single.id}?resolved=true`, { ns: n.ns });
      expect(res.status).toBe(403);
      const unknown = await h.call('PUT', `${n.prefix}/discussions/${'d'.repeat(40)}?resolved=true`, {
        ns: n.ns,
      });
      expect(unknown.status).toBe(404);
    });

    it('When the merge request author resolves a thread, then 200; a reporter note author may resolve their note', async () => {
      const ns = projectNamespace();
      const mr = (
        await h.call('POST', `/projects/${ns.id}/merge_requests`, {
          ns,
          json: { source_branch: 'f', target_branch: 'main', title: 'x' },
        })
      ).body as { iid: number };
      const prefix = `/projects/${ns.id}/merge_requests/${mr.iid}`;
      const thread = discussionEntity.parse(
        (await h.call('POST', `${prefix}/discussions`, { ns, as: REPORTER, json: { body: 'q' } })).body,
      );
      const byNoteAuthor = await h.call(
        'PUT',
        `${prefix}/discussions/${thread.id}/notes/${thread.notes[0]!.id}`,
        {
          ns,
          as: REPORTER,
          json: { resolved: true },
        },
      );
      expect(noteEntity.parse(byNoteAuthor.body).resolved).toBe(true);
      const byNoteableAuthor = await h.call('PUT', `${prefix}/discussions/${thread.id}?resolved=false`, {
        ns,
      });
      expect(discussionEntity.parse(byNoteableAuthor.body).resolved).toBe(false);
    });

    it("When a note is updated with both or neither of body and resolved, then GitLab's 400s; resolved alone resolves", async () => {
      const n = await make('MergeRequest');
      const thread = discussionEntity.parse(
        (await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: { body: 'x' } })).body,
      );
      const url = `${n.prefix}/discussions/${thread.id}/notes/${thread.notes[0]!.id}`;
      const both = await h.call('PUT', url, { ns: n.ns, json: { body: 'y', resolved: true } });
      expect(both).toMatchObject({ status: 400, body: { error: 'body, resolved are mutually exclusive' } });
      const neither = await h.call('PUT', url, { ns: n.ns, json: {} });
      expect(neither).toMatchObject({
        status: 400,
        body: { error: 'body, resolved are missing, exactly one parameter must be provided' },
      });
      const resolved = noteEntity.parse(
        (await h.call('PUT', `${url}?resolved=true`, { ns: n.ns, as: DEVELOPER })).body,
      );
      expect(resolved).toMatchObject({ resolved: true, resolved_by: { id: DEVELOPER.id } });
    });

    it('When an issue note is resolved, then 400 "Note is not resolvable"', async () => {
      const n = await make('Issue');
      const thread = discussionEntity.parse(
        (await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, json: { body: 'x' } })).body,
      );
      const res = await h.call('PUT', `${n.prefix}/discussions/${thread.id}/notes/${thread.notes[0]!.id}`, {
        ns: n.ns,
        json: { resolved: true },
      });
      expect(res).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Note is not resolvable' },
      });
    });

    it('When a diff note is sent as nested JSON, then a DiffNote with its position and commit_id', async () => {
      const n = await make('MergeRequest');
      const res = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: {
          body: 'Nit',
          commit_id: 'c'.repeat(40),
          position: {
            ...position,
            line_range: {
              start: { line_code: 'abc_1_12', type: 'new' },
              end: { line_code: 'abc_1_13', type: 'new' },
            },
          },
        },
      });
      expect(res.status).toBe(201);
      const note = discussionEntity.parse(res.body).notes[0]!;
      expect(note).toMatchObject({ type: 'DiffNote', commit_id: 'c'.repeat(40), resolvable: true });
      expect(note.position).toMatchObject({
        base_sha: position.base_sha,
        head_sha: position.head_sha,
        start_sha: position.start_sha,
        position_type: 'text',
        new_path: 'app.rb',
        new_line: 12,
        old_line: null,
        line_range: {
          start: { line_code: 'abc_1_12', type: 'new' },
          end: { line_code: 'abc_1_13', type: 'new' },
        },
      });
    });

    it('When a position carries "line_range": null as go-gitlab sends it, then the DiffNote is created without a range', async () => {
      const n = await make('MergeRequest');
      const res = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: { body: 'Nit', position: { ...position, line_range: null } },
      });
      expect(res.status).toBe(201);
      const note = discussionEntity.parse(res.body).notes[0]!;
      expect(note).toMatchObject({ type: 'DiffNote', position: { new_line: 12, line_range: null } });
      const lineless = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: { body: 'x', position: { ...position, new_line: undefined, line_range: null } },
      });
      expect(lineless).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Note {:position=>["is incomplete"]}' },
      });
    });

    it('When a diff note is sent as bracketed multipart or form keys, then the same position is stored', async () => {
      const n = await make('MergeRequest');
      const flat: Record<string, string> = { body: 'Multipart' };
      for (const [key, value] of Object.entries(position)) flat[`position[${key}]`] = String(value);
      const multipart = await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, multipart: flat });
      expect(multipart.status).toBe(201);
      expect(discussionEntity.parse(multipart.body).notes[0]!.position).toMatchObject({
        new_line: 12,
        new_path: 'app.rb',
      });
      const form = await h.call('POST', `${n.prefix}/discussions`, { ns: n.ns, form: flat });
      expect(discussionEntity.parse(form.body).notes[0]!.type).toBe('DiffNote');
    });

    it('When an image diff note is sent, then width, height, x and y are kept', async () => {
      const n = await make('MergeRequest');
      const res = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: {
          body: 'img',
          position: {
            ...position,
            position_type: 'image',
            new_line: undefined,
            width: 100,
            height: 50,
            x: 3,
            y: 4,
          },
        },
      });
      expect(discussionEntity.parse(res.body).notes[0]!.position).toMatchObject({
        width: 100,
        height: 50,
        x: 3,
        y: 4,
      });
    });

    it.each([
      [{ ...position, base_sha: undefined }, 'position[base_sha] is missing'],
      [{ ...position, position_type: 'video' }, 'position[position_type] does not have a valid value'],
      [{ ...position, new_line: 'twelve' }, 'position[new_line] is invalid'],
      ['not-a-hash', 'position is invalid'],
    ])('When the position is invalid (%#), then 400 %s', async (bad, message) => {
      const n = await make('MergeRequest');
      const res = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: { body: 'x', position: bad },
      });
      expect(res).toMatchObject({ status: 400, body: { error: message } });
    });

    it('When a text position names no file or line, then 400 "Note {:position=>[\\"is incomplete\\"]}"', async () => {
      const n = await make('MergeRequest');
      const { new_line: _line, new_path: _n, old_path: _o, ...bare } = position;
      const res = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: { body: 'x', position: bare },
      });
      expect(res).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Note {:position=>["is incomplete"]}' },
      });
    });
  });

  describe('Commit discussions', () => {
    it('When a diff note is started on a commit and its note resolved, then DiffNote with position and resolved true', async () => {
      const n = await make('Commit');
      const sha = n.prefix.split('/').pop()!;
      const res = await h.call('POST', `${n.prefix}/discussions`, {
        ns: n.ns,
        json: {
          body: 'here',
          position: {
            base_sha: sha,
            start_sha: sha,
            head_sha: sha,
            position_type: 'text',
            new_path: 'a',
            new_line: 1,
          },
        },
      });
      expect(res.status).toBe(201);
      const thread = discussionEntity.parse(res.body);
      expect(thread.notes[0]).toMatchObject({ type: 'DiffNote', noteable_type: 'Commit', noteable_id: null });
      expect(thread.notes[0]!.commit_id).toBeUndefined();
      const resolved = await h.call(
        'PUT',
        `${n.prefix}/discussions/${thread.id}/notes/${thread.notes[0]!.id}?resolved=true`,
        { ns: n.ns },
      );
      expect(resolved.status).toBe(200);
      expect(noteEntity.parse(resolved.body)).toMatchObject({
        resolved: true,
        resolved_by: { id: OWNER.id },
      });
      const viaShortPath = await h.call('GET', `/projects/${n.ns.id}/commits/${sha}/discussions`, {
        ns: n.ns,
      });
      expect(discussions.parse(viaShortPath.body)).toHaveLength(1);
    });
  });
});
