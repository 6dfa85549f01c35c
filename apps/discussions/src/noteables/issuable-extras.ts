import type { NoteableDoc } from './noteable.model';
import type { NoteablesStore } from './noteables.store';
import type { MilestoneDoc } from '../copies/copies.models';
import type { NotesStore } from '../notes/notes.store';

/** What an issue or merge request shows besides its own document: its milestone and user_notes_count. */
export function createIssuableExtras(stores: {
  notes: Pick<NotesStore, 'userNotesCount' | 'userNoteCounts' | 'noteFacts'>;
  noteables: Pick<NoteablesStore, 'milestone' | 'milestones'>;
}) {
  const { notes, noteables } = stores;
  return {
    /** GitLab's user_notes_count: comments, not system notes; internal ones only for who reads them. */
    async userNotesCount(doc: NoteableDoc, withInternal: boolean) {
      return notes.userNotesCount(doc, withInternal);
    },
    /** The notes' facts of one noteable (participation.ts): its count and participation from one read. */
    noteFacts: (doc: NoteableDoc) => notes.noteFacts(doc),
    async milestone(id: number | null): Promise<MilestoneDoc | null> {
      return id ? noteables.milestone(id) : null;
    },
    /**
     * Milestone and user_notes_count of every issuable of a page, in two queries whatever its size (one
     * count and one milestone read per item made a 20-issue page 40 queries). `withInternal` says per item
     * whether the caller reads internal notes.
     */
    async pageExtras(docs: NoteableDoc[], withInternal: (doc: NoteableDoc) => boolean) {
      const milestoneIds = [...new Set(docs.flatMap((d) => (d.milestoneId ? [d.milestoneId] : [])))];
      const [milestones, counts] = await Promise.all([
        noteables.milestones(milestoneIds),
        notes.userNoteCounts(docs),
      ]);
      const milestoneById = new Map(milestones.map((m) => [m._id, m]));
      return new Map(
        docs.map((doc) => {
          const internalToo = withInternal(doc);
          const userNotesCount = counts
            .filter((c) => c._id.noteable === doc._id && (internalToo || c._id.internal !== true))
            .reduce((sum, c) => sum + c.n, 0);
          return [doc._id, { milestone: milestoneById.get(doc.milestoneId ?? -1) ?? null, userNotesCount }];
        }),
      );
    },
  };
}
