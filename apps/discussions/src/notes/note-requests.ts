import type { Request, Response } from 'express';
import {
  ACCESS_LEVELS,
  type InternalContext,
  type NoteableTypeName,
  type PositionParam,
} from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  accessLevelOf,
  isHigherTier,
  requestOrigin,
  requireUser,
  sendJson,
  sendNoContent,
} from '@gl/service-kit';
import {
  canAdminNote,
  canReadCode,
  canReadNote,
  canReadNoteable,
  readableNamespace,
  userSummaryOf,
} from '../common/access';
import { SERVICE_PRODUCER } from '../common/origin';
import type { NoteablesService } from '../noteables/noteables.service';
import type { NoteDoc } from './note.model';
import { targetOfCommit, targetOfNoteable, type NoteTarget } from './note-target';
import { noteErrors, type NoteVisibility, type NotesService } from './notes.service';
import { presentNote } from './notes.presenter';

/**
 * What the Discussions API (threads.router.ts) and the Notes API (notes.router.ts) share: finding the
 * noteable of a request and its notes, and GitLab's rules on reading, changing and deleting them.
 */

/** Where each noteable lives: a project, or a group (epics). */
export const NOTEABLE_KINDS = {
  Issue: 'project',
  MergeRequest: 'project',
  Snippet: 'project',
  Epic: 'group',
  Commit: 'project',
} as const satisfies Record<NoteableTypeName, 'project' | 'group'>;

/** Noteables whose policy has `mark_note_as_internal` (Issue, MergeRequest and Epic policies): Reporter and up. */
const INTERNAL_NOTES: ReadonlySet<NoteableTypeName> = new Set(['Issue', 'MergeRequest', 'Epic']);

/**
 * Notes::BuildService: `internal` (or the deprecated `confidential`) only where the caller may
 * `mark_note_as_internal`; otherwise the note is an ordinary one, as GitLab silently does.
 */
export function internalRequested(
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
export function visibleNotes(ctx: InternalContext, target: NoteTarget): NoteVisibility {
  return (note) => canReadNote(ctx, target.access, note);
}

/** get_note: a note the caller cannot read is `not_found!("Note")`. */
function readableOr404(ctx: InternalContext, target: NoteTarget, note: NoteDoc): NoteDoc {
  if (!canReadNote(ctx, target.access, note)) throw new NotFoundError('Note');
  return note;
}

/** NotePolicy prevents admin_note and resolve_note on a note the caller cannot read: 403. */
export function requireReadable(ctx: InternalContext, target: NoteTarget, note: NoteDoc): void {
  if (!canReadNote(ctx, target.access, note)) throw new ForbiddenError();
}

/** `resolve_note` on the project: the noteable's author, or Developer and up (NotePolicy adds the note's author). */
export function canResolve(ctx: InternalContext, target: NoteTarget): boolean {
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
export function requireCompletePosition(position: PositionParam): void {
  const path = position.new_path ?? position.old_path;
  const line = position.new_line ?? position.old_line ?? position.line_range ?? undefined;
  if (!path || (position.position_type === 'text' && line === undefined)) {
    throw noteErrors(['is incomplete'], 'position');
  }
}

/** A note route's path: its noteable (a commit's SHA, else an id or iid) and the note's id. */
interface NotePath {
  noteable_id: number | string;
  note_id: number;
}

/** A handler call as `route` makes it, for the note routes both APIs have. */
interface NoteCall {
  req: Request;
  res: Response;
  ctx: InternalContext;
  params: () => NotePath;
}

export function createNoteRequests(
  noteables: Pick<NoteablesService, 'findCommit' | 'findByIid' | 'findSnippet' | 'findEpicById'>,
  notes: Pick<NotesService, 'thread' | 'findNote' | 'remove'>,
) {
  /**
   * find_noteable: the noteable on a readable namespace, else 404 "<Type> Not Found". `noteableId` is
   * read once the namespace is known to be readable.
   */
  async function targetOf(
    req: Request,
    type: NoteableTypeName,
    noteableId: () => number | string,
  ): Promise<NoteTarget> {
    const ns = readableNamespace(req.ctx, NOTEABLE_KINDS[type]);
    const missing = () => new NotFoundError(type);
    if (type === 'Commit') {
      // CommitPolicy: `read_commit` comes with `download_code` (Reporter and up on private projects).
      if (!canReadCode(req.ctx)) throw missing();
      const commit = await noteables.findCommit(ns.id, String(noteableId()));
      if (!commit) throw missing();
      return targetOfCommit(commit);
    }
    const id = noteableId() as number;
    let doc;
    if (type === 'Issue' || type === 'MergeRequest') {
      doc = await noteables.findByIid(type, 'projectId', ns.id, id);
    } else if (type === 'Snippet') {
      doc = await noteables.findSnippet(ns.id, id);
    } else {
      doc = isHigherTier(req.ctx) ? await noteables.findEpicById(ns.id, id) : null;
    }
    // find_noteable: a noteable the user cannot read (`read_<noteable>`) is "not found".
    if (!doc || !canReadNoteable(req.ctx, doc)) throw missing();
    return targetOfNoteable(doc);
  }

  /** The thread `:discussion_id` of the noteable, its notes the caller may read (maybe none). */
  async function threadOf(
    req: Request,
    type: NoteableTypeName,
    path: () => { noteable_id: number | string; discussion_id: string },
  ) {
    const target = await targetOf(req, type, () => path().noteable_id);
    const visible = visibleNotes(req.ctx, target);
    return { target, thread: await notes.thread(target, path().discussion_id, visible) };
  }

  /** The note `:note_id` of the noteable (404 when it is not there). */
  async function noteOf(req: Request, type: NoteableTypeName, path: NotePath) {
    const target = await targetOf(req, type, () => path.noteable_id);
    return { target, note: await notes.findNote(target, path.note_id) };
  }

  return {
    targetOf,
    threadOf,
    noteOf,

    /** GET a note, by the Discussions API or the Notes API. */
    showNote:
      (type: NoteableTypeName) =>
      async ({ req, res, ctx, params }: NoteCall) => {
        requireUser(ctx);
        const { target, note } = await noteOf(req, type, params());
        sendJson(res, 200, presentNote(readableOr404(ctx, target, note)));
      },

    /** DELETE a note, by the Discussions API or the Notes API. */
    deleteNote:
      (type: NoteableTypeName) =>
      async ({ req, res, ctx, params }: NoteCall) => {
        const user = requireUser(ctx);
        const { target, note } = await noteOf(req, type, params());
        requireReadable(ctx, target, note);
        if (!canAdminNote(ctx, note)) throw new ForbiddenError();
        requireUnmodifiedSince(req, note);
        await notes.remove(requestOrigin(SERVICE_PRODUCER, ctx), target, userSummaryOf(user), note);
        sendNoContent(res);
      },
  };
}
