import type { EventEnvelope } from '@gl/contracts';
import { pushEvents, withEvents } from '@gl/service-kit';
import type { NoteDoc } from './note.model';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteFacts } from '../noteables/participation';
import type { NoteTarget } from './note-target';
import type { DiscussionsDeps } from '../discussions.models';
import { createNoteCounts } from './note-counts';

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

/** Every read and write of the `notes` collection. */
export function createNotesStore(deps: Pick<DiscussionsDeps, 'models' | 'outbox'>) {
  const { models, outbox } = deps;
  const notes = models.notes;
  const counts = createNoteCounts(models.noteables);

  return {
    /**
     * Inserts a note with the events it carries, counted on its noteable (note-counts.ts), then wakes the
     * outbox relay if it carries any.
     */
    async insert(doc: NoteDoc, events: EventEnvelope[]): Promise<void> {
      const stored = withEvents(doc, events);
      await counts.counting(doc, () => notes.create(stored));
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

    /**
     * A keyset page of the target's notes (notes.service.ts noteKeysetPage): the conditions, the cursor's
     * range among them, read in `sort` along the order's index and stopped after `limit`.
     */
    async seek(
      target: NoteTarget,
      conditions: Record<string, unknown>[],
      sort: Record<string, 1 | -1>,
      limit: number,
    ): Promise<NoteDoc[]> {
      return notes
        .find({ $and: [targetFilter(target), ...conditions] })
        .sort(sort)
        .limit(limit)
        .lean<NoteDoc[]>();
    },

    async find(target: NoteTarget, noteId: number): Promise<NoteDoc | null> {
      return notes.findOne({ ...targetFilter(target), _id: noteId }).lean<NoteDoc>();
    },

    /** A single comment replied to becomes a thread: its notes turn into DiscussionNotes. */
    async makeThread(target: NoteTarget, discussionId: string): Promise<void> {
      await notes.updateMany({ ...targetFilter(target), discussionId }, { $set: { type: 'DiscussionNote' } });
    },

    /** Sets fields of a note with the events the change carries, in one write. */
    async set(
      noteId: number,
      fields: Partial<Pick<NoteDoc, 'body' | 'updatedAt' | 'resolvedAt' | 'resolvedBy'>>,
      events: EventEnvelope[] = [],
    ): Promise<void> {
      await notes.updateOne({ _id: noteId }, pushEvents({ $set: fields }, events));
      if (events.length > 0) outbox.kick(notes);
    },

    /** Through the outbox: a note.created event the relay has not sent yet still goes out. False if gone. */
    async remove(note: NoteDoc, events: EventEnvelope[] = []): Promise<boolean> {
      // Its award emoji go first (`dependent: :destroy`): none outlives the note.
      await notes.db.collection('award_emoji').deleteMany({ awardableType: 'Note', awardableId: note._id });
      return counts.uncounting(note, () => outbox.deleteWithEvents(notes, note._id, events));
    },

    /** Sets a noteable's comment counts from its notes where they were off (note-counts.ts). */
    repairCounts: (doc: NoteableDoc, facts: NoteFacts[]) => counts.repair(doc, facts),

    /**
     * The facts of a noteable's notes that its answer needs (participation.ts), in one read: its
     * user_notes_count and whether the caller takes part, where the count alone would not do.
     */
    async noteFacts(doc: NoteableDoc): Promise<NoteFacts[]> {
      return notes
        .find({ noteableType: doc.kind, noteableId: doc._id }, { author: 1, body: 1, system: 1, internal: 1 })
        .lean<NoteFacts[]>();
    },
  };
}

export type NotesStore = ReturnType<typeof createNotesStore>;
