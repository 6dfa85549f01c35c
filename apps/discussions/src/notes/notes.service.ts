import { createHash, randomBytes } from 'node:crypto';
import {
  DOMAIN_EVENT_TYPES,
  TEXT_LIMITS,
  characterCount,
  tooLongMessage,
  type NoteableTypeName,
  type PositionParam,
  type UserSummary,
} from '@gl/contracts';
import {
  BadRequestError,
  NotFoundError,
  createEvent,
  rubyInspect,
  type Counters,
  type EventOrigin,
  type TimeKeysetCursor,
} from '@gl/service-kit';
import type { NoteDoc } from './note.model';
import type { NoteTarget } from './note-target';
import { isResolvable, isThreadResolved } from './note-rules';
import { noteChangedEvent, noteEventData } from './note-events';
import type { NotesStore } from './notes.store';
import { actorOf } from '../common/access';
import { afterCursor, keysetPageOf, keysetSort, type KeysetOrder } from '../lists/issuable-keyset';

export type { NoteDoc } from './note.model';

/** Note bodies: GitLab's limit (app/models/concerns/notes/active_record.rb), kept with the others in contracts. */
export const NOTE_MAX_LENGTH = TEXT_LIMITS.noteBody;

/** Noteable.replyable_types (EE adds Epic): single comments there can be turned into threads. */
const REPLYABLE: ReadonlySet<NoteableTypeName> = new Set(['Issue', 'MergeRequest', 'Epic']);

const UNDERSCORED: Record<NoteableTypeName, string> = {
  Issue: 'issue',
  MergeRequest: 'merge_request',
  Snippet: 'snippet',
  Epic: 'epic',
  Commit: 'commit',
};

/** app/models/discussion.rb: SHA1 of "discussion-<type>-<id or sha>-<random hex>". */
export function newDiscussionId(target: NoteTarget): string {
  const key = target.commitSha ?? String(target.noteableId);
  return createHash('sha1')
    .update(`discussion-${UNDERSCORED[target.type]}-${key}-${randomBytes(16).toString('hex')}`)
    .digest('hex');
}

/** Ruby's Hash#inspect of ActiveModel errors, as `bad_request!("Note #{note.errors.messages}")` prints it. */
export function noteErrors(messages: string[], attribute = 'note'): BadRequestError {
  return new BadRequestError(`Note ${rubyInspect({ [attribute]: messages })}`);
}

export function validateBody(body: string): void {
  if (body.trim() === '') throw noteErrors(["can't be blank"]);
  if (characterCount(body) > NOTE_MAX_LENGTH) throw noteErrors([tooLongMessage(NOTE_MAX_LENGTH)]);
}

export interface NewNote {
  body: string;
  type: NoteDoc['type'];
  system?: boolean;
  discussionId?: string;
  createdAt?: Date | null;
  position?: PositionParam | null;
  commitId?: string | null;
  resolved?: { by: UserSummary; at: Date } | null;
  /** Internal note: the caller checked `mark_note_as_internal`. */
  internal?: boolean;
}

/** UserPreference::NOTES_FILTERS. */
const ACTIVITY_FILTERS: Record<'all_notes' | 'only_comments' | 'only_activity', (n: NoteDoc) => boolean> = {
  all_notes: () => true,
  only_comments: (n) => !n.system,
  only_activity: (n) => n.system,
};

/** How the Notes API lists a noteable's notes. */
export interface NoteListOptions {
  activity_filter?: keyof typeof ACTIVITY_FILTERS;
  order_by?: 'created_at' | 'updated_at' | 'id';
  sort?: 'asc' | 'desc';
}

/** Which notes the caller may read (the router's rule); the lists and threads leave the others out. */
export type NoteVisibility = (note: NoteDoc) => boolean;

const everyNote: NoteVisibility = () => true;

export function createNotesService(deps: { counters: Counters; store: NotesStore }) {
  const { counters, store } = deps;

  async function create(
    origin: EventOrigin,
    target: NoteTarget,
    author: UserSummary,
    input: NewNote,
  ): Promise<NoteDoc> {
    const system = input.system ?? false;
    if (!system) validateBody(input.body);
    const id = await counters.next('note');
    const now = new Date();
    const createdAt = input.createdAt ?? now;
    const doc: NoteDoc = {
      _id: id,
      projectId: target.projectId,
      groupId: target.groupId,
      noteableType: target.type,
      noteableId: target.noteableId,
      noteableIid: target.noteableIid,
      commitSha: target.commitSha,
      discussionId: input.discussionId ?? newDiscussionId(target),
      type: input.type,
      body: input.body,
      system,
      author,
      createdAt,
      updatedAt: input.createdAt ?? now,
      resolvable: false,
      resolvedBy: input.resolved?.by ?? null,
      resolvedAt: input.resolved?.at ?? null,
      position: input.position ?? null,
      commitId: input.commitId ?? null,
      internal: input.internal ?? false,
    };
    doc.resolvable = isResolvable(doc);
    // GitLab records no activity event for system notes (Notes::PostProcessService skips them).
    const events = system
      ? []
      : [
          createEvent(origin, {
            type: DOMAIN_EVENT_TYPES.discussions.noteCreated,
            actor: actorOf(author),
            projectId: target.projectId,
            groupId: target.groupId,
            data: noteEventData(target, doc),
          }),
        ];
    await store.insert(doc, events);
    return doc;
  }

  async function createSystemNote(
    origin: EventOrigin,
    target: NoteTarget,
    author: UserSummary,
    body: string,
  ): Promise<NoteDoc> {
    return create(origin, target, author, { body, type: null, system: true });
  }

  /** One page of threads, ordered as GitLab's discussion_ids_relation (MIN(created_at), MIN(id)). */
  async function threadPage(target: NoteTarget, skip: number, limit: number, visible = everyNote) {
    const all = await threads(target, visible);
    return { threads: all.slice(skip, skip + limit), total: all.length };
  }

  /**
   * Every visible note of the target, grouped into threads ordered by their first note (created_at, id);
   * a thread none of whose notes is visible is left out (GitLab's readable_discussion_notes).
   */
  async function threads(target: NoteTarget, visible = everyNote): Promise<NoteDoc[][]> {
    const byId = new Map<string, NoteDoc[]>();
    for (const note of (await store.ofTarget(target)).filter(visible)) {
      const thread = byId.get(note.discussionId);
      if (thread) thread.push(note);
      else byId.set(note.discussionId, [note]);
    }
    return [...byId.values()];
  }

  /** The Notes API's list: the visible notes of the target, filtered and ordered as asked, one page of them. */
  async function notePage(
    target: NoteTarget,
    options: NoteListOptions,
    skip: number,
    limit: number,
    visible = everyNote,
  ) {
    const all = (await threads(target, visible))
      .flat()
      .filter(ACTIVITY_FILTERS[options.activity_filter ?? 'all_notes']);
    const key = options.order_by === 'updated_at' ? 'updatedAt' : 'createdAt';
    const direction = options.sort === 'asc' ? 1 : -1;
    all.sort((a, b) => direction * (a[key].getTime() - b[key].getTime() || a._id - b._id));
    return { items: all.slice(skip, skip + limit), total: all.length };
  }

  /**
   * A keyset page of the Notes API's list (not GitLab's, which pages notes by offset): the activity filter
   * and, for callers who cannot read internal notes, `internal` as conditions the order's index answers
   * (note.model.ts), a range from the cursor, `limit` notes and the next page's cursor while more follow.
   */
  async function noteKeysetPage(
    target: NoteTarget,
    page: {
      activity: NoteListOptions['activity_filter'];
      order: KeysetOrder;
      after: TimeKeysetCursor | null;
    },
    limit: number,
    readsInternal: boolean,
  ) {
    const activity = page.activity ?? 'all_notes';
    const conditions = [
      ...(activity === 'all_notes' ? [] : [{ system: activity === 'only_activity' }]),
      // `$in` rather than `$ne: true`: answered by the index (older notes lack the field).
      ...(readsInternal ? [] : [{ internal: { $in: [false, null] } }]),
      ...afterCursor(page.order, page.after),
    ];
    const found = await store.seek(target, conditions, keysetSort(page.order), limit + 1);
    return keysetPageOf(page.order, found, limit);
  }

  async function thread(target: NoteTarget, discussionId: string, visible = everyNote): Promise<NoteDoc[]> {
    return (await store.ofTarget(target, discussionId)).filter(visible);
  }

  async function findNote(target: NoteTarget, noteId: number): Promise<NoteDoc> {
    const note = await store.find(target, noteId);
    if (!note) throw new NotFoundError();
    return note;
  }

  /**
   * POST .../discussions/:id/notes: a reply; a single comment becomes a thread where GitLab allows it. A
   * thread the caller cannot read is not found (readable_discussion_notes); a reply to an internal thread is
   * internal (Notes::BuildService: `discussion.confidential?`).
   */
  async function reply(
    origin: EventOrigin,
    target: NoteTarget,
    author: UserSummary,
    discussionId: string,
    body: string,
    createdAt: Date | null,
    visible = everyNote,
  ): Promise<NoteDoc> {
    const notes = await thread(target, discussionId, visible);
    const first = notes[0];
    if (!first) throw new NotFoundError('Discussion');
    if (first.type === null && !REPLYABLE.has(target.type)) {
      throw new BadRequestError('Discussion can not be replied to.');
    }
    validateBody(body);
    if (first.type === null) await store.makeThread(target, discussionId);
    const converted = notes.map((n) => ({ ...n, type: n.type ?? ('DiscussionNote' as const) }));
    const resolvedThread = isThreadResolved(converted);
    return create(origin, target, author, {
      body,
      type: 'DiscussionNote',
      discussionId,
      createdAt,
      resolved: resolvedThread && target.type === 'MergeRequest' ? { by: author, at: new Date() } : null,
      internal: first.internal ?? false,
    });
  }

  /** Edits a note's body, with its `note.updated` event in the same write (note-events.ts). */
  async function updateBody(
    origin: EventOrigin,
    target: NoteTarget,
    actor: UserSummary,
    note: NoteDoc,
    body: string,
  ): Promise<NoteDoc> {
    validateBody(body);
    const updated = { ...note, body, updatedAt: new Date() };
    const events = note.system ? [] : [noteChangedEvent(origin, 'updated', target, updated, actor)];
    await store.set(note._id, { body, updatedAt: updated.updatedAt }, events);
    return updated;
  }

  async function setResolved(note: NoteDoc, resolved: boolean, by: UserSummary): Promise<NoteDoc> {
    const resolvedAt = resolved ? new Date() : null;
    const resolvedBy = resolved ? by : null;
    await store.set(note._id, { resolvedAt, resolvedBy });
    return { ...note, resolvedAt, resolvedBy };
  }

  /** Resolves or unresolves every resolvable note of a thread (Discussions::ResolveService). */
  async function resolveThread(notes: NoteDoc[], resolved: boolean, by: UserSummary): Promise<NoteDoc[]> {
    const out: NoteDoc[] = [];
    for (const note of notes) {
      if (!isResolvable(note)) out.push(note);
      else if (resolved && note.resolvedAt) out.push(note);
      else out.push(await setResolved(note, resolved, by));
    }
    return out;
  }

  /** Deletes a note, with its `note.deleted` event in the same write (note-events.ts). */
  async function remove(origin: EventOrigin, target: NoteTarget, actor: UserSummary, note: NoteDoc) {
    const events = note.system ? [] : [noteChangedEvent(origin, 'deleted', target, note, actor)];
    if (!(await store.remove(note, events))) throw new NotFoundError();
  }

  return {
    create,
    createSystemNote,
    threads,
    threadPage,
    notePage,
    noteKeysetPage,
    thread,
    findNote,
    reply,
    updateBody,
    setResolved,
    resolveThread,
    remove,
  };
}

export type NotesService = ReturnType<typeof createNotesService>;
