import type { Model } from 'mongoose';
import type { NoteDoc } from './note.model';
import type { NoteableDoc } from '../noteables/noteable.model';
import type { NoteFacts } from '../noteables/participation';

type CountedNote = Pick<NoteDoc, 'system' | 'internal' | 'noteableId'>;
type CountFields = Pick<NoteableDoc, 'userNotesCount' | 'internalNotesCount'>;

/** The noteable field a comment counts in; none for system notes and commit notes (no noteable document). */
function fieldOf(note: CountedNote): 'userNotesCount' | 'internalNotesCount' | null {
  if (note.system || note.noteableId == null) return null;
  return note.internal === true ? 'internalNotesCount' : 'userNotesCount';
}

/** GitLab's user_notes_count of a noteable as kept on it: internal comments only for who reads them. */
export function keptUserNotesCount(doc: CountFields, withInternal: boolean): number {
  return (doc.userNotesCount ?? 0) + (withInternal ? (doc.internalNotesCount ?? 0) : 0);
}

/** Takes many notes off their noteables' counts at once (one bulk write), before the notes are deleted. */
export async function uncountNotes(noteables: Model<NoteableDoc>, notes: CountedNote[]): Promise<void> {
  const by = new Map<string, { id: number; field: string; n: number }>();
  for (const note of notes) {
    const field = fieldOf(note);
    if (!field) continue;
    const key = `${note.noteableId}:${field}`;
    const entry = by.get(key) ?? { id: note.noteableId!, field, n: 0 };
    entry.n++;
    by.set(key, entry);
  }
  if (by.size === 0) return;
  await noteables.bulkWrite(
    [...by.values()].map(({ id, field, n }) => ({
      updateOne: { filter: { _id: id }, update: { $inc: { [field]: -n } } },
    })),
    { ordered: false },
  );
}

/**
 * The comment counts kept on each noteable (`userNotesCount`, `internalNotesCount`), so a list page shows
 * GitLab's user_notes_count from its own documents instead of a grouped count over the page's notes.
 *
 * There are no transactions, so a count and its note are two writes. The count always moves first (before
 * a note is inserted, before one is deleted) and moves back if the note's write fails; a crash in between
 * leaves the count off by one, never a note lost. Any read of a noteable's notes repairs it (`repair`):
 * a compare-and-set against the counts the noteable document showed, so it never overwrites a move made
 * meanwhile (that move changed the stored value, and the repair then does nothing).
 */
export function createNoteCounts(noteables: Model<NoteableDoc>) {
  async function move(note: CountedNote, by: 1 | -1): Promise<void> {
    const field = fieldOf(note);
    if (field) await noteables.updateOne({ _id: note.noteableId }, { $inc: { [field]: by } });
  }

  return {
    /** Around a note's insert: counted first, uncounted again if the insert fails. */
    async counting<T>(note: CountedNote, insert: () => Promise<T>): Promise<T> {
      await move(note, 1);
      try {
        return await insert();
      } catch (err) {
        await move(note, -1);
        throw err;
      }
    },

    /** Around a note's delete: uncounted first, counted again if the note was not there to delete. */
    async uncounting(note: CountedNote, remove: () => Promise<boolean>): Promise<boolean> {
      await move(note, -1);
      let removed = false;
      try {
        removed = await remove();
      } finally {
        if (!removed) await move(note, 1);
      }
      return removed;
    },

    /** Sets the counts from every note of the noteable when the document showed others (see above). */
    async repair(doc: NoteableDoc & CountFields, notes: NoteFacts[]): Promise<void> {
      const comments = notes.filter((n) => !n.system);
      const internal = comments.filter((n) => n.internal === true).length;
      const counted = { userNotesCount: comments.length - internal, internalNotesCount: internal };
      const shown = {
        userNotesCount: doc.userNotesCount ?? 0,
        internalNotesCount: doc.internalNotesCount ?? 0,
      };
      if (
        counted.userNotesCount === shown.userNotesCount &&
        counted.internalNotesCount === shown.internalNotesCount
      )
        return;
      const unchanged = (field: keyof typeof shown) =>
        shown[field] === 0 ? { [field]: { $in: [0, null] } } : { [field]: shown[field] };
      await noteables.updateOne(
        { _id: doc._id, ...unchanged('userNotesCount'), ...unchanged('internalNotesCount') },
        { $set: counted },
      );
    },
  };
}
