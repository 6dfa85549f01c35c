import type { EventEnvelope } from '@gl/contracts';
import { withEvents } from '@gl/service-kit';
import type { NoteDoc } from './note.model';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteFacts } from '../noteables/participation';
import type { NoteTarget } from './note-target';
import type { DiscussionsDeps } from '../discussions.models';

/** The notes of one target: an issue, merge request, snippet or epic by id, a commit by project and SHA. */
function targetFilter(target: NoteTarget): Record<string, unknown> {
  return target.type === 'Commit'
    ? { noteableType: 'Commit', projectId: target.projectId, commitSha: target.commitSha }
    : { noteableType: target.type, noteableId: target.noteableId };
}

/** Notes oldest first: created_at, then id (GitLab's `fresh` scope). */
function byCreation(a: NoteDoc, b: NoteDoc): number {
  return new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime() || a._id - b._id;
}

/** Note counts of a page of noteables, by noteable and by whether the notes are internal. */
export interface UserNoteCount {
  _id: { noteable: number; internal: boolean | null };
  n: number;
}

/** Every read and write of the `notes` collection. */
export function createNotesStore(deps: Pick<DiscussionsDeps, 'models' | 'outbox'>) {
  const { models, outbox } = deps;
  const notes = models.notes;

  return {
    /** Inserts a note with the events it carries, then wakes the outbox relay if it carries any. */
    async insert(doc: NoteDoc, events: EventEnvelope[]): Promise<void> {
      await notes.create(withEvents(doc, events));
      if (events.length > 0) outbox.kick(notes);
    },

    /**
     * The target's notes (one thread's with `discussionId`), oldest first. Sorted in process: FerretDB's
     * server-side sort and `$in` were slower here (measured: 160 ms vs 126 ms for a page of 20 out of 200
     * threads).
     */
    async ofTarget(target: NoteTarget, discussionId?: string): Promise<NoteDoc[]> {
      const filter = discussionId ? { ...targetFilter(target), discussionId } : targetFilter(target);
      return (await notes.find(filter).lean<NoteDoc[]>()).sort(byCreation);
    },

    async find(target: NoteTarget, noteId: number): Promise<NoteDoc | null> {
      return notes.findOne({ ...targetFilter(target), _id: noteId }).lean<NoteDoc>();
    },

    /** A single comment replied to becomes a thread: its notes turn into DiscussionNotes. */
    async makeThread(target: NoteTarget, discussionId: string): Promise<void> {
      await notes.updateMany({ ...targetFilter(target), discussionId }, { $set: { type: 'DiscussionNote' } });
    },

    async set(
      noteId: number,
      fields: Partial<Pick<NoteDoc, 'body' | 'updatedAt' | 'resolvedAt' | 'resolvedBy'>>,
    ): Promise<void> {
      await notes.updateOne({ _id: noteId }, { $set: fields });
    },

    /** Through the outbox: a note.created event the relay has not sent yet still goes out. False if gone. */
    async remove(noteId: number): Promise<boolean> {
      // Its award emoji go first (`dependent: :destroy`): none outlives the note.
      await notes.db.collection('award_emoji').deleteMany({ awardableType: 'Note', awardableId: noteId });
      return outbox.deleteWithEvents(notes, noteId, []);
    },

    /** GitLab's user_notes_count: comments, not system notes; internal ones only when asked for. */
    async userNotesCount(doc: NoteableDoc, withInternal: boolean): Promise<number> {
      const filter: Record<string, unknown> = { noteableType: doc.kind, noteableId: doc._id, system: false };
      if (!withInternal) filter.internal = { $ne: true };
      return notes.countDocuments(filter);
    },

    /**
     * The facts of a noteable's notes that its answer needs (participation.ts), in one read: its
     * user_notes_count and whether the caller takes part, where the count alone would not do.
     */
    async noteFacts(doc: NoteableDoc): Promise<NoteFacts[]> {
      return notes
        .find({ noteableType: doc.kind, noteableId: doc._id }, { author: 1, body: 1, system: 1, internal: 1 })
        .lean<NoteFacts[]>();
    },

    /** The comments of a page of noteables (all of one kind), counted in one query. */
    async userNoteCounts(docs: NoteableDoc[]): Promise<UserNoteCount[]> {
      if (docs.length === 0) return [];
      return notes.aggregate<UserNoteCount>([
        {
          $match: { noteableType: docs[0]!.kind, noteableId: { $in: docs.map((d) => d._id) }, system: false },
        },
        { $group: { _id: { noteable: '$noteableId', internal: '$internal' }, n: { $sum: 1 } } },
      ]);
    },
  };
}

export type NotesStore = ReturnType<typeof createNotesStore>;
