import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  ACCESS_LEVELS,
  DISCUSSIONS_API,
  createThreadBody,
  integerParam,
  type InternalContext,
  type NoteableTypeName,
  type PositionParam,
} from '@gl/contracts';
import {
  BadRequestError,
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  accessLevelOf,
  collectParams,
  isHigherTier,
  parseParams,
  requestOrigin,
  requireExactlyOne,
  requireUser,
  route,
  sendJson,
  sendNoContent,
} from '@gl/service-kit';
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
import { SERVICE_PRODUCER } from './discussions.origin';

/** Where each noteable lives: a project, or a group (epics). */
const NOTEABLE_KINDS = {
  Issue: 'project',
  MergeRequest: 'project',
  Snippet: 'project',
  Epic: 'group',
  Commit: 'project',
} as const satisfies Record<NoteableTypeName, 'project' | 'group'>;

/** The noteables with the Notes API (single comments): every one but commits. */
const NOTES_API_TYPES = ['Issue', 'MergeRequest', 'Snippet', 'Epic'] as const;

/** What starting a thread may carry: each noteable's create params are one of these. */
type CreateThreadParams = z.infer<typeof createThreadBody> & {
  commit_id?: string;
  position?: PositionParam;
};

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
  async function targetOf(req: Request, type: NoteableTypeName): Promise<NoteTarget> {
    const ns = readableNamespace(req.ctx, NOTEABLE_KINDS[type]);
    const raw = pathParam(req, 'noteable_id');
    const missing = new NotFoundError(type);
    if (type === 'Commit') {
      // CommitPolicy: `read_commit` comes with `download_code` (Reporter and up on private projects).
      if (!canReadCode(req.ctx)) throw missing;
      const commit = await noteables.findCommit(ns.id, raw);
      if (!commit) throw missing;
      return targetOfCommit(commit);
    }
    const id = parseParams(z.object({ noteable_id: integerParam }), { noteable_id: raw }).noteable_id;
    let doc;
    if (type === 'Issue' || type === 'MergeRequest') {
      doc = await noteables.findByIid(type, 'projectId', ns.id, id);
    } else if (type === 'Snippet') {
      doc = await noteables.findSnippet(ns.id, id);
    } else {
      doc = isHigherTier(req.ctx) ? await noteables.findEpicById(ns.id, id) : null;
    }
    // find_noteable: a noteable the user cannot read (`read_<noteable>`) is "not found".
    if (!doc || !canReadNoteable(req.ctx, doc)) throw missing;
    return targetOfNoteable(doc);
  }

  /** The thread `:discussion_id` of the noteable, its notes the caller may read (maybe none). */
  async function threadOf(req: Request, type: NoteableTypeName) {
    const target = await targetOf(req, type);
    const visible = visibleNotes(req.ctx, target);
    return { target, thread: await notes.thread(target, pathParam(req, 'discussion_id'), visible) };
  }

  /** The note `:note_id` of the noteable (404 when it is not there). */
  async function noteOf(req: Request, type: NoteableTypeName) {
    const { note_id } = parseParams(noteIdParams, { note_id: pathParam(req, 'note_id') });
    const target = await targetOf(req, type);
    return { target, note: await notes.findNote(target, note_id) };
  }

  /** GET a note, by the Discussions API or the Notes API. */
  const showNote =
    (type: NoteableTypeName) =>
    async ({ req, res, ctx }: { req: Request; res: Response; ctx: InternalContext }) => {
      requireUser(ctx);
      const { target, note } = await noteOf(req, type);
      sendJson(res, 200, presentNote(readableOr404(ctx, target, note)));
    };

  /** DELETE a note, by the Discussions API or the Notes API. */
  const deleteNote =
    (type: NoteableTypeName) =>
    async ({ req, res, ctx }: { req: Request; res: Response; ctx: InternalContext }) => {
      requireUser(ctx);
      const { target, note } = await noteOf(req, type);
      requireReadable(ctx, target, note);
      if (!canAdminNote(ctx, note)) throw new ForbiddenError();
      requireUnmodifiedSince(req, note);
      await notes.remove(note);
      sendNoContent(res);
    };

  // lib/api/discussions.rb: the same thread routes on every noteable (commits also at /projects/:id/commits).
  for (const type of Object.keys(NOTEABLE_KINDS) as NoteableTypeName[]) {
    const kind = NOTEABLE_KINDS[type];

    route(router, DISCUSSIONS_API[`list${type}Discussions`], async ({ req, res, ctx, params }) => {
      requireUser(ctx);
      params();
      const list = await readPage(req, async (skip, limit) => {
        const target = await targetOf(req, type);
        const found = await notes.threadPage(target, skip, limit, visibleNotes(ctx, target));
        return { items: found.threads, total: found.total };
      });
      await sendPage(req, res, list, (items) => items.map(presentDiscussion));
    });

    route(router, DISCUSSIONS_API[`get${type}Discussion`], async ({ req, res, ctx }) => {
      requireUser(ctx);
      const { thread } = await threadOf(req, type);
      if (thread.length === 0) throw new NotFoundError('Discussion');
      sendJson(res, 200, presentDiscussion(thread));
    });

    route(router, DISCUSSIONS_API[`create${type}Discussion`], async ({ req, res, ctx, params }) => {
      const user = commenter(ctx, kind);
      const given: CreateThreadParams = params();
      const target = await targetOf(req, type);
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

    route(router, DISCUSSIONS_API[`list${type}DiscussionNotes`], async ({ req, res, ctx, params }) => {
      requireUser(ctx);
      params();
      // The thread's readable notes, oldest first, a page of them with the usual headers (X-Total, Link).
      const list = await readPage(req, async (skip, limit) => {
        const { thread } = await threadOf(req, type);
        if (thread.length === 0) throw new NotFoundError('Notes');
        return { items: thread.slice(skip, skip + limit), total: thread.length };
      });
      await sendPage(req, res, list, (items) => items.map(presentNote));
    });

    route(router, DISCUSSIONS_API[`add${type}DiscussionNote`], async ({ req, res, ctx, params }) => {
      const user = commenter(ctx, kind);
      const given = params();
      const target = await targetOf(req, type);
      const created = await notes.reply(
        requestOrigin(SERVICE_PRODUCER, ctx),
        target,
        userSummaryOf(user),
        pathParam(req, 'discussion_id'),
        given.body,
        canSetCreatedAt(ctx) ? parseCreatedAt(given.created_at) : null,
        visibleNotes(ctx, target),
      );
      sendJson(res, 201, presentNote(created));
    });

    route(router, DISCUSSIONS_API[`get${type}DiscussionNote`], showNote(type));

    route(router, DISCUSSIONS_API[`update${type}DiscussionNote`], async ({ req, res, ctx, params }) => {
      const user = requireUser(ctx);
      const { note_id } = parseParams(noteIdParams, { note_id: pathParam(req, 'note_id') });
      const given = params();
      const changed = requireExactlyOne(collectParams(req), ['body', 'resolved']);
      const target = await targetOf(req, type);
      const found = await notes.findNote(target, note_id);
      requireReadable(ctx, target, found);
      let updated: NoteDoc;
      if (changed === 'body') {
        if (!canAdminNote(ctx, found)) throw new ForbiddenError();
        updated = await notes.updateBody(found, given.body!);
      } else {
        const ownNote = ctx.principal?.id === found.author.id;
        if (!ownNote && !canResolve(ctx, target)) throw new ForbiddenError();
        if (!takesResolution(found)) throw new BadRequestError('Note is not resolvable');
        updated = await notes.setResolved(found, given.resolved!, userSummaryOf(user));
      }
      sendJson(res, 200, presentNote(updated));
    });

    route(router, DISCUSSIONS_API[`delete${type}DiscussionNote`], deleteNote(type));
  }

  // lib/api/discussions.rb `resolvable_noteable`: only merge request threads are resolved as a whole.
  route(router, DISCUSSIONS_API.resolveMergeRequestDiscussion, async ({ req, res, ctx, params }) => {
    const user = requireUser(ctx);
    const { resolved } = params();
    const { target, thread } = await threadOf(req, 'MergeRequest');
    if (thread.length === 0) throw new NotFoundError('Discussion');
    if (!thread.some(isResolvable) || !canResolve(ctx, target)) throw new ForbiddenError();
    const updated = await notes.resolveThread(thread, resolved, userSummaryOf(user));
    sendJson(res, 200, presentDiscussion(updated));
  });

  // lib/api/notes.rb: single comments.
  for (const type of NOTES_API_TYPES) {
    const kind = NOTEABLE_KINDS[type];

    route(router, DISCUSSIONS_API[`list${type}Notes`], async ({ req, res, ctx, params }) => {
      requireUser(ctx);
      const query = params();
      const list = await readPage(req, async (skip, limit) => {
        const target = await targetOf(req, type);
        return notes.notePage(target, query, skip, limit, visibleNotes(ctx, target));
      });
      await sendPage(req, res, list, (items) => items.map(presentNote));
    });

    route(router, DISCUSSIONS_API[`create${type}Note`], async ({ req, res, ctx, params }) => {
      const user = commenter(ctx, kind);
      const given = params();
      const target = await targetOf(req, type);
      const internal = internalRequested(ctx, type, given);
      const created = await notes.create(requestOrigin(SERVICE_PRODUCER, ctx), target, userSummaryOf(user), {
        body: given.body,
        type: null,
        createdAt: canSetCreatedAt(ctx) ? parseCreatedAt(given.created_at) : null,
        internal,
      });
      sendJson(res, 201, presentNote(created));
    });

    route(router, DISCUSSIONS_API[`get${type}Note`], showNote(type));

    route(router, DISCUSSIONS_API[`update${type}Note`], async ({ req, res, ctx, params }) => {
      requireUser(ctx);
      const { note_id } = parseParams(noteIdParams, { note_id: pathParam(req, 'note_id') });
      const { body } = params();
      // Grape's allow_blank: false on the Notes API (the Discussions API lets the model refuse it instead).
      if (body !== undefined && body.trim() === '') throw new ParamError(['body is empty']);
      const target = await targetOf(req, type);
      const found = await notes.findNote(target, note_id);
      if (!canAdminNote(ctx, found)) throw new ForbiddenError();
      const updated = body === undefined ? found : await notes.updateBody(found, body);
      sendJson(res, 200, presentNote(updated));
    });

    route(router, DISCUSSIONS_API[`delete${type}Note`], deleteNote(type));
  }

  return router;
}
