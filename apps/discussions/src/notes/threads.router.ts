import { Router } from 'express';
import type { z } from 'zod';
import {
  DISCUSSIONS_API,
  THREAD_OPERATIONS,
  createThreadBody,
  type NoteableTypeName,
  type PositionParam,
} from '@gl/contracts';
import {
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  collectParams,
  requestOrigin,
  requireExactlyOne,
  requireUser,
  route,
  sendJson,
} from '@gl/service-kit';
import { canAdminNote, canSetCreatedAt, commenter, userSummaryOf } from '../common/access';
import { readPage, sendPage } from '../common/http';
import { SERVICE_PRODUCER } from '../common/origin';
import { parseCreatedAt } from '../common/params';
import type { NoteablesService } from '../noteables/noteables.service';
import { isResolvable, takesResolution } from './note-rules';
import type { NoteDoc, NotesService } from './notes.service';
import { presentDiscussion, presentNote } from './notes.presenter';
import {
  NOTEABLE_KINDS,
  canResolve,
  createNoteRequests,
  internalRequested,
  requireCompletePosition,
  requireReadable,
  visibleNotes,
} from './note-requests';

/** What starting a thread may carry: each noteable's create params are one of these. */
type CreateThreadParams = z.infer<typeof createThreadBody> & {
  noteable_id: number | string;
  commit_id?: string;
  position?: PositionParam;
};

/** lib/api/discussions.rb: the same thread routes on every noteable (commits also at /projects/:id/commits). */
export function createThreadsRouter(noteables: NoteablesService, notes: NotesService): Router {
  const router = Router();
  const { targetOf, threadOf, showNote, deleteNote } = createNoteRequests(noteables, notes);

  for (const type of Object.keys(NOTEABLE_KINDS) as NoteableTypeName[]) {
    const kind = NOTEABLE_KINDS[type];
    const operations = THREAD_OPERATIONS[type];

    route(router, DISCUSSIONS_API[operations.listDiscussions], async ({ req, res, ctx, params }) => {
      requireUser(ctx);
      const { noteable_id } = params();
      const list = await readPage(req, async (skip, limit) => {
        const target = await targetOf(req, type, () => noteable_id);
        const found = await notes.threadPage(target, skip, limit, visibleNotes(ctx, target));
        return { items: found.threads, total: found.total };
      });
      await sendPage(req, res, list, (items) => items.map(presentDiscussion));
    });

    route(router, DISCUSSIONS_API[operations.getDiscussion], async ({ req, res, ctx, params }) => {
      requireUser(ctx);
      const { thread } = await threadOf(req, type, params);
      if (thread.length === 0) throw new NotFoundError('Discussion');
      sendJson(res, 200, presentDiscussion(thread));
    });

    route(router, DISCUSSIONS_API[operations.createDiscussion], async ({ req, res, ctx, params }) => {
      const user = commenter(ctx, kind);
      const given: CreateThreadParams = params();
      const target = await targetOf(req, type, () => given.noteable_id);
      const position = given.position ?? null;
      if (position) requireCompletePosition(position);
      const created = await notes.create(requestOrigin(SERVICE_PRODUCER, ctx), target, userSummaryOf(user), {
        body: given.body,
        type: position ? 'DiffNote' : 'DiscussionNote',
        position,
        commitId: type === 'MergeRequest' && position ? (given.commit_id ?? null) : null,
        createdAt: canSetCreatedAt(ctx) ? parseCreatedAt(given.created_at) : null,
        // GitLab's Discussions API has no `internal`; a client that asks for an internal thread gets one
        // rather than a public thread it did not mean to publish (same rule as the Notes API).
        internal: internalRequested(ctx, type, given),
      });
      sendJson(res, 201, presentDiscussion([created]));
    });

    route(router, DISCUSSIONS_API[operations.listDiscussionNotes], async ({ req, res, ctx, params }) => {
      requireUser(ctx);
      const path = params();
      // The thread's readable notes, oldest first, a page of them with the usual headers (X-Total, Link).
      const list = await readPage(req, async (skip, limit) => {
        const { thread } = await threadOf(req, type, () => path);
        if (thread.length === 0) throw new NotFoundError('Notes');
        return { items: thread.slice(skip, skip + limit), total: thread.length };
      });
      await sendPage(req, res, list, (items) => items.map(presentNote));
    });

    route(router, DISCUSSIONS_API[operations.addDiscussionNote], async ({ req, res, ctx, params }) => {
      const user = commenter(ctx, kind);
      const given = params();
      const target = await targetOf(req, type, () => given.noteable_id);
      const created = await notes.reply(
        requestOrigin(SERVICE_PRODUCER, ctx),
        target,
        userSummaryOf(user),
        given.discussion_id,
        given.body,
        canSetCreatedAt(ctx) ? parseCreatedAt(given.created_at) : null,
        visibleNotes(ctx, target),
      );
      sendJson(res, 201, presentNote(created));
    });

    route(router, DISCUSSIONS_API[operations.getDiscussionNote], showNote(type));

    route(router, DISCUSSIONS_API[operations.updateDiscussionNote], async ({ req, res, ctx, params }) => {
      const user = requireUser(ctx);
      const given = params();
      const changed = requireExactlyOne(collectParams(req), ['body', 'resolved']);
      const target = await targetOf(req, type, () => given.noteable_id);
      const found = await notes.findNote(target, given.note_id);
      requireReadable(ctx, target, found);
      let updated: NoteDoc;
      if (changed === 'body') {
        if (!canAdminNote(ctx, found)) throw new ForbiddenError();
        const origin = requestOrigin(SERVICE_PRODUCER, ctx);
        updated = await notes.updateBody(origin, target, userSummaryOf(user), found, given.body!);
      } else {
        const ownNote = ctx.principal?.id === found.author.id;
        if (!ownNote && !canResolve(ctx, target)) throw new ForbiddenError();
        if (!takesResolution(found)) throw new BadRequestError('Note is not resolvable');
        updated = await notes.setResolved(found, given.resolved!, userSummaryOf(user));
      }
      sendJson(res, 200, presentNote(updated));
    });

    route(router, DISCUSSIONS_API[operations.deleteDiscussionNote], deleteNote(type));
  }

  // lib/api/discussions.rb `resolvable_noteable`: only merge request threads are resolved as a whole.
  route(router, DISCUSSIONS_API.resolveMergeRequestDiscussion, async ({ req, res, ctx, params }) => {
    const user = requireUser(ctx);
    const given = params();
    const { target, thread } = await threadOf(req, 'MergeRequest', () => given);
    if (thread.length === 0) throw new NotFoundError('Discussion');
    if (!thread.some(isResolvable) || !canResolve(ctx, target)) throw new ForbiddenError();
    const updated = await notes.resolveThread(thread, given.resolved, userSummaryOf(user));
    sendJson(res, 200, presentDiscussion(updated));
  });

  return router;
}
