import { Router } from 'express';
import { DISCUSSIONS_API, NOTE_OPERATIONS, wantsKeyset } from '@gl/contracts';
import {
  ForbiddenError,
  ParamError,
  readPageRequest,
  requestOrigin,
  requireUser,
  route,
  sendJson,
  setKeysetPaginationHeaders,
} from '@gl/service-kit';
import { canAdminNote, canReadNote, canSetCreatedAt, commenter, userSummaryOf } from '../common/access';
import { keysetOrderOf, readListCursor } from '../lists/issuable-keyset';
import { readPage, sendPage } from '../common/http';
import { SERVICE_PRODUCER } from '../common/origin';
import { parseCreatedAt } from '../common/params';
import type { NoteablesService } from '../noteables/noteables.service';
import type { NotesService } from './notes.service';
import { presentNote } from './notes.presenter';
import { NOTEABLE_KINDS, createNoteRequests, internalRequested, visibleNotes } from './note-requests';

/** The noteables with the Notes API (single comments): every one but commits. */
const NOTES_API_TYPES = ['Issue', 'MergeRequest', 'Snippet', 'Epic'] as const;

/** lib/api/notes.rb: single comments. */
export function createNotesRouter(noteables: NoteablesService, notes: NotesService): Router {
  const router = Router();
  const { targetOf, showNote, deleteNote } = createNoteRequests(noteables, notes);

  for (const type of NOTES_API_TYPES) {
    const kind = NOTEABLE_KINDS[type];
    const operations = NOTE_OPERATIONS[type];

    route(router, DISCUSSIONS_API[operations.listNotes], async ({ req, res, ctx, params }) => {
      requireUser(ctx);
      const query = params();
      if (wantsKeyset(query)) {
        // Keyset pages (list-params.ts keysetListParams): the noteable, then the order, then the cursor.
        const target = await targetOf(req, type, () => query.noteable_id);
        const order = keysetOrderOf(query.order_by, query.sort);
        const after = readListCursor(order, query.cursor);
        const { perPage } = readPageRequest(req.query);
        const readsInternal = canReadNote(ctx, target.access, { internal: true });
        const page = await notes.noteKeysetPage(
          target,
          { activity: query.activity_filter, order, after },
          perPage,
          readsInternal,
        );
        setKeysetPaginationHeaders(req, res, page.nextCursor);
        sendJson(res, 200, page.items.filter(visibleNotes(ctx, target)).map(presentNote));
        return;
      }
      // `id` orders keyset pages only; offset pages keep GitLab's created_at and updated_at.
      if (query.order_by === 'id') throw new ParamError(['order_by does not have a valid value']);
      const list = await readPage(req, async (skip, limit) => {
        const target = await targetOf(req, type, () => query.noteable_id);
        return notes.notePage(target, query, skip, limit, visibleNotes(ctx, target));
      });
      await sendPage(req, res, list, (items) => items.map(presentNote));
    });

    route(router, DISCUSSIONS_API[operations.createNote], async ({ req, res, ctx, params }) => {
      const user = commenter(ctx, kind);
      const given = params();
      const target = await targetOf(req, type, () => given.noteable_id);
      const internal = internalRequested(ctx, type, given);
      const created = await notes.create(requestOrigin(SERVICE_PRODUCER, ctx), target, userSummaryOf(user), {
        body: given.body,
        type: null,
        createdAt: canSetCreatedAt(ctx) ? parseCreatedAt(given.created_at) : null,
        internal,
      });
      sendJson(res, 201, presentNote(created));
    });

    route(router, DISCUSSIONS_API[operations.getNote], showNote(type));

    route(router, DISCUSSIONS_API[operations.updateNote], async ({ req, res, ctx, params }) => {
      const user = requireUser(ctx);
      const { noteable_id, note_id, body } = params();
      // Grape's allow_blank: false on the Notes API (the Discussions API lets the model refuse it instead).
      if (body !== undefined && body.trim() === '') throw new ParamError(['body is empty']);
      const target = await targetOf(req, type, () => noteable_id);
      const found = await notes.findNote(target, note_id);
      if (!canAdminNote(ctx, found)) throw new ForbiddenError();
      const origin = requestOrigin(SERVICE_PRODUCER, ctx);
      const updated =
        body === undefined ? found : await notes.updateBody(origin, target, userSummaryOf(user), found, body);
      sendJson(res, 200, presentNote(updated));
    });

    route(router, DISCUSSIONS_API[operations.deleteNote], deleteNote(type));
  }

  return router;
}
