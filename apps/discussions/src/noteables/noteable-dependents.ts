import type { Model } from 'mongoose';
import type { NoteDoc } from '../notes/note.model';
import type { NoteableDoc } from './noteable.model';

/** Note ids read and their awards deleted per statement: bounded statements for a long discussion. */
const BATCH = 500;

/**
 * The award emoji of a noteable and of its notes (GitLab's `award_emoji` rows go with their awardable,
 * `dependent: :destroy`), deleted before the noteable and its notes, so none outlives them: read by the
 * awardable indexes, the notes a batch at a time along (noteableType, noteableId, createdAt).
 */
export async function removeDependents(
  noteables: Model<NoteableDoc>,
  notes: Model<NoteDoc>,
  type: 'Issue' | 'MergeRequest' | 'Snippet' | 'Epic',
  noteableId: number,
): Promise<void> {
  const awards = noteables.db.collection('award_emoji');
  await awards.deleteMany({ awardableType: type, awardableId: noteableId });
  for (let skip = 0; ; skip += BATCH) {
    const batch = await notes
      .find({ noteableType: type, noteableId })
      .sort({ createdAt: 1 })
      .skip(skip)
      .limit(BATCH)
      .select({ _id: 1 })
      .lean<Pick<NoteDoc, '_id'>[]>();
    if (batch.length > 0) {
      await awards.deleteMany({ awardableType: 'Note', awardableId: { $in: batch.map((note) => note._id) } });
    }
    if (batch.length < BATCH) return;
  }
}
