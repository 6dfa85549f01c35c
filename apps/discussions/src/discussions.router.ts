import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  ACCESS_LEVELS,
  addDiscussionNoteBody,
  createCommitDiscussionBody,
  createThreadBody,
  createMergeRequestDiscussionBody,
  createNoteBody,
  integerParam,
  listDiscussionsQuery,
  listNotesQuery,
  resolveDiscussionBody,
  updateNoteBody,
  updateSingleNoteBody,
  type NoteableTypeName,
  type PositionParam,
} from '@gl/contracts';
import {
  BadRequestError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  accessLevelOf,
  collectParams,
  isHigherTier,
  parseParams,
  requireExactlyOne,
  requireUser,
  sendJson,
  sendNoContent,
  ParamError,
} from '@gl/service-kit';
import type { InternalContext } from '@gl/contracts';
import {
  canAdminNote,
  canReadCode,
  canReadNote,
  canReadNoteable,
  canSetCreatedAt,
  commenter,
  readableNamespace,
  userSummaryOf,
} from './discussions.access';
import { presentDiscussion, presentNote } from './discussions.presenters';
import { readPage, sendPage } from './discussions.http';
import { isResolvable, takesResolution } from './note-rules';
import type { NoteDoc } from './discussions.models';
import {
  noteErrors,
  parseCreatedAt,
  type NoteTarget,
  type NoteVisibility,
  type NotesService,
} from './notes.service';
import { targetOfCommit, targetOfNoteable } from './noteable-documents';
import type { NoteablesService } from './noteables.service';
import { originOf } from './discussions.origin';

interface NoteableRoute {
  type: NoteableTypeName;
  base: string;
  kind: 'project' | 'group';
  /** The Notes API (single comments) exists for this noteable. */
  notesApi: boolean;
}

const ROUTES: NoteableRoute[] = [
  { type: 'Issue', base: '/projects/:id/issues/:noteable_id', kind: 'project', notesApi: true },
  {
    type: 'MergeRequest',
    base: '/projects/:id/merge_requests/:noteable_id',
    kind: 'project',
    notesApi: true,
  },
  { type: 'Snippet', base: '/projects/:id/snippets/:noteable_id', kind: 'project', notesApi: true },
  { type: 'Epic', base: '/groups/:id/epics/:noteable_id', kind: 'group', notesApi: true },
  { type: 'Commit', base: '/projects/:id/repository/commits/:noteable_id', kind: 'project', notesApi: false },
  { type: 'Commit', base: '/projects/:id/commits/:noteable_id', kind: 'project', notesApi: false },
];

const noteIdParams = z.object({ note_id: integerParam });

function pathParam(req: Request, name: string): string {
  return String((req.params as Record<string, string | undefined>)[name] ?? '');
}

/** Noteables whose policy has `mark_note_as_internal` (Issue, MergeRequest and Epic policies): Reporter and up. */
const INTERNAL_NOTES: ReadonlySet<NoteableTypeName> = new Set(['Issue', 'MergeRequest', 'Epic']);

/**
 * Notes::BuildService: `internal` (or the deprecated `confidential`) only where the caller may
 * `mark_note_as_internal`; otherwise the note is an ordinary one, as GitLab silently does.
 */
function internalRequested(
  ctx: InternalContext,
  type: NoteableTypeName,
  params: { internal?: boolean; confidential?: boolean },
): boolean {
  return (
    Boolean(params.internal || params.confidential) &&
    INTERNAL_NOTES.has(type) &&
    accessLevelOf(ctx) >= ACCESS_LEVELS.reporter
  );
}

/** `read_note` for the caller on the target's notes: internal ones need `read_internal_note`. */
function visibleNotes(ctx: InternalContext, target: NoteTarget): NoteVisibility {
  return (note) => canReadNote(ctx, target.access, note);
}

/** get_note: a note the caller cannot read is `not_found!("Note")`. */
function readableOr404(ctx: InternalContext, target: NoteTarget, note: NoteDoc): NoteDoc {
  if (!canReadNote(ctx, target.access, note)) throw new NotFoundError('Note');
  return note;
}

/** NotePolicy prevents admin_note and resolve_note on a note the caller cannot read: 403. */
function requireReadable(ctx: InternalContext, target: NoteTarget, note: NoteDoc): void {
  if (!canReadNote(ctx, target.access, note)) throw new ForbiddenError();
}

/** `resolve_note` on the project: the noteable's author, or Developer and up (NotePolicy adds the note's author). */
function canResolve(ctx: InternalContext, target: NoteTarget): boolean {
  return ctx.principal?.id === target.authorId || accessLevelOf(ctx) >= ACCESS_LEVELS.developer;
}

/** destroy_conditionally!: a note changed after If-Unmodified-Since is not deleted (412). */
function requireUnmodifiedSince(req: Request, note: NoteDoc): void {
  const header = req.headers['if-unmodified-since'];
  if (!header) return;
  const since = new Date(header).getTime();
  // HTTP dates have whole seconds; compare at that precision.
  if (!Number.isNaN(since) && Math.floor(new Date(note.updatedAt).getTime() / 1000) * 1000 > since) {
    throw new HttpError(412, { message: '412 Precondition Failed' });
  }
}

/** DiffNote#positions_complete: a file, and for text positions a line. */
function requireCompletePosition(position: PositionParam): void {
  const path = position.new_path ?? position.old_path;
  const line = position.new_line ?? position.old_line ?? position.line_range ?? undefined;
  if (!path || (position.position_type === 'text' && line === undefined)) {
    throw noteErrors(['is incomplete'], 'position');
  }
}

export function createDiscussionsRouter(noteables: NoteablesService, notes: NotesService): Router {
  const router = Router();

  /** find_noteable: the noteable on a readable namespace, else 404 "<Type> Not Found". */
  async function targetOf(req: Request, route: NoteableRoute): Promise<NoteTarget> {
    const ns = readableNamespace(req.ctx, route.kind);
    const raw = pathParam(req, 'noteable_id');
    const missing = new NotFoundError(route.type);
    if (route.type === 'Commit') {
      // CommitPolicy: `read_commit` comes with `download_code` (Reporter and up on private projects).
      if (!canReadCode(req.ctx)) throw missing;
      const commit = await noteables.findCommit(ns.id, raw);
      if (!commit) throw missing;
      return targetOfCommit(commit);
    }
    const id = parseParams(z.object({ noteable_id: integerParam }), { noteable_id: raw }).noteable_id;
    let doc;
    if (route.type === 'Issue' || route.type === 'MergeRequest') {
      doc = await noteables.findByIid(route.type, 'projectId', ns.id, id);
    } else if (route.type === 'Snippet') {
      doc = await noteables.findSnippet(ns.id, id);
    } else {
      doc = isHigherTier(req.ctx) ? await noteables.findEpicById(ns.id, id) : null;
    }
    // find_noteable: a noteable the user cannot read (`read_<noteable>`) is "not found".
    if (!doc || !canReadNoteable(req.ctx, doc)) throw missing;
    return targetOfNoteable(doc);
  }

  /** The thread `:discussion_id` of the route's noteable, its notes the caller may read (maybe none). */
  async function threadOf(req: Request, route: NoteableRoute) {
    const target = await targetOf(req, route);
    const visible = visibleNotes(req.ctx, target);
    return { target, thread: await notes.thread(target, pathParam(req, 'discussion_id'), visible) };
  }

  /** The note `:note_id` of the route's noteable (404 when it is not there). */
  async function noteOf(req: Request, route: NoteableRoute) {
    const { note_id } = parseParams(noteIdParams, { note_id: pathParam(req, 'note_id') });
    const target = await targetOf(req, route);
    return { target, note: await notes.findNote(target, note_id) };
  }

  /** GET a note, by the Discussions API or the Notes API. */
  const showNote = (route: NoteableRoute) => async (req: Request, res: Response) => {
    requireUser(req.ctx);
    const { target, note } = await noteOf(req, route);
    sendJson(res, 200, presentNote(readableOr404(req.ctx, target, note)));
  };

  /** DELETE a note, by the Discussions API or the Notes API. */
  const deleteNote = (route: NoteableRoute) => async (req: Request, res: Response) => {
    requireUser(req.ctx);
    const { target, note } = await noteOf(req, route);
    requireReadable(req.ctx, target, note);
    if (!canAdminNote(req.ctx, note)) throw new ForbiddenError();
    requireUnmodifiedSince(req, note);
    await notes.remove(note);
    sendNoContent(res);
  };

  for (const route of ROUTES) {
    const base = `${route.base}/discussions`;
    const one = `${base}/:discussion_id`;
    const note = `${one}/notes/:note_id`;
    const createSchema =
      route.type === 'MergeRequest'
        ? createMergeRequestDiscussionBody
        : route.type === 'Commit'
          ? createCommitDiscussionBody
          : createThreadBody;

    router.get(base, async (req, res) => {
      requireUser(req.ctx);
      parseParams(listDiscussionsQuery, req.query);
      const list = await readPage(req, async (skip, limit) => {
        const target = await targetOf(req, route);
        const found = await notes.threadPage(target, skip, limit, visibleNotes(req.ctx, target));
        return { items: found.threads, total: found.total };
      });
      await sendPage(req, res, list, (items) => items.map(presentDiscussion));
    });

    router.get(one, async (req, res) => {
      requireUser(req.ctx);
      const { thread } = await threadOf(req, route);
      if (thread.length === 0) throw new NotFoundError('Discussion');
      sendJson(res, 200, presentDiscussion(thread));
    });

    router.post(base, async (req, res) => {
      const user = commenter(req.ctx, route.kind);
      const params = parseParams(createSchema, collectParams(req)) as z.infer<
        typeof createMergeRequestDiscussionBody
      >;
      const target = await targetOf(req, route);
      const position = params.position ?? null;
      if (position) requireCompletePosition(position);
      const created = await notes.create(originOf(req), target, userSummaryOf(user), {
        body: params.body,
        type: position ? 'DiffNote' : 'DiscussionNote',
        position,
        commitId: route.type === 'MergeRequest' && position ? (params.commit_id ?? null) : null,
        createdAt: canSetCreatedAt(req.ctx) ? parseCreatedAt(params.created_at) : null,
        // GitLab's Discussions API has no `internal`; a client that asks for an internal thread gets one
        // rather than a public thread it did not mean to publish (same rule as the Notes API).
        internal: internalRequested(req.ctx, route.type, params),
      });
      sendJson(res, 201, presentDiscussion([created]));
    });

    router.get(`${one}/notes`, async (req, res) => {
      requireUser(req.ctx);
      const { thread } = await threadOf(req, route);
      if (thread.length === 0) throw new NotFoundError('Notes');
      sendJson(res, 200, thread.map(presentNote));
    });

    router.post(`${one}/notes`, async (req, res) => {
      const user = commenter(req.ctx, route.kind);
      const params = parseParams(addDiscussionNoteBody, collectParams(req));
      const target = await targetOf(req, route);
      const created = await notes.reply(
        originOf(req),
        target,
        userSummaryOf(user),
        pathParam(req, 'discussion_id'),
        params.body,
        canSetCreatedAt(req.ctx) ? parseCreatedAt(params.created_at) : null,
        visibleNotes(req.ctx, target),
      );
      sendJson(res, 201, presentNote(created));
    });

    router.get(note, showNote(route));

    router.put(note, async (req, res) => {
      const user = requireUser(req.ctx);
      const raw = collectParams(req);
      const { note_id } = parseParams(noteIdParams, { note_id: pathParam(req, 'note_id') });
      const params = parseParams(updateNoteBody, raw);
      const given = requireExactlyOne(raw, ['body', 'resolved']);
      const target = await targetOf(req, route);
      const found = await notes.findNote(target, note_id);
      requireReadable(req.ctx, target, found);
      let updated: NoteDoc;
      if (given === 'body') {
        if (!canAdminNote(req.ctx, found)) throw new ForbiddenError();
        updated = await notes.updateBody(found, params.body!);
      } else {
        const ownNote = req.ctx.principal?.id === found.author.id;
        if (!ownNote && !canResolve(req.ctx, target)) throw new ForbiddenError();
        if (!takesResolution(found)) throw new BadRequestError('Note is not resolvable');
        updated = await notes.setResolved(found, params.resolved!, userSummaryOf(user));
      }
      sendJson(res, 200, presentNote(updated));
    });

    router.delete(note, deleteNote(route));

    if (route.type === 'MergeRequest') {
      router.put(one, async (req, res) => {
        const user = requireUser(req.ctx);
        const params = parseParams(resolveDiscussionBody, collectParams(req));
        const { target, thread } = await threadOf(req, route);
        if (thread.length === 0) throw new NotFoundError('Discussion');
        if (!thread.some(isResolvable) || !canResolve(req.ctx, target)) throw new ForbiddenError();
        const updated = await notes.resolveThread(thread, params.resolved, userSummaryOf(user));
        sendJson(res, 200, presentDiscussion(updated));
      });
    }

    if (!route.notesApi) continue;
    const notesBase = `${route.base}/notes`;

    router.get(notesBase, async (req, res) => {
      requireUser(req.ctx);
      const query = parseParams(listNotesQuery, req.query);
      const list = await readPage(req, async (skip, limit) => {
        const target = await targetOf(req, route);
        return notes.notePage(target, query, skip, limit, visibleNotes(req.ctx, target));
      });
      await sendPage(req, res, list, (items) => items.map(presentNote));
    });

    router.post(notesBase, async (req, res) => {
      const user = commenter(req.ctx, route.kind);
      const params = parseParams(createNoteBody, collectParams(req));
      const target = await targetOf(req, route);
      const internal = internalRequested(req.ctx, route.type, params);
      const created = await notes.create(originOf(req), target, userSummaryOf(user), {
        body: params.body,
        type: null,
        createdAt: canSetCreatedAt(req.ctx) ? parseCreatedAt(params.created_at) : null,
        internal,
      });
      sendJson(res, 201, presentNote(created));
    });

    router.get(`${notesBase}/:note_id`, showNote(route));

    router.put(`${notesBase}/:note_id`, async (req, res) => {
      requireUser(req.ctx);
      const raw = collectParams(req);
      const { note_id } = parseParams(noteIdParams, { note_id: pathParam(req, 'note_id') });
      const params = parseParams(updateSingleNoteBody, raw);
      // Grape's allow_blank: false on the Notes API (the Discussions API lets the model refuse it instead).
      if (params.body !== undefined && params.body.trim() === '') throw new ParamError(['body is empty']);
      const target = await targetOf(req, route);
      const found = await notes.findNote(target, note_id);
      if (!canAdminNote(req.ctx, found)) throw new ForbiddenError();
      const updated = params.body === undefined ? found : await notes.updateBody(found, params.body);
      sendJson(res, 200, presentNote(updated));
    });

    router.delete(`${notesBase}/:note_id`, deleteNote(route));
  }

  return router;
}
