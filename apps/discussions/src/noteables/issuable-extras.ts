import type { NoteableDoc } from './noteable.model';
import type { NoteablesStore } from './noteables.store';
import type { MilestoneDoc } from '../copies/copies.models';
import type { NotesStore } from '../notes/notes.store';
import type { Votes } from '../award-emoji/award-emoji.store';
import { keptUserNotesCount } from '../notes/note-counts';
import type { NoteFacts } from './participation';

/** GitLab's `upvotes` and `downvotes` of an issue or merge request, as kept on it (award-emoji.service.ts). */
export const votesOf = (doc: NoteableDoc): Votes => ({
  upvotes: doc.upvotesCount ?? 0,
  downvotes: doc.downvotesCount ?? 0,
});

/**
 * What an issue or merge request shows besides its own document: its milestone (from the in-process
 * copy cache); user_notes_count and votes are kept on the document itself.
 */
export function createIssuableExtras(stores: {
  notes: Pick<NotesStore, 'noteFacts' | 'repairCounts'>;
  noteables: Pick<NoteablesStore, 'milestone' | 'milestones'>;
}) {
  const { notes, noteables } = stores;
  return {
    /** GitLab's user_notes_count: comments, not system notes; internal ones only for who reads them. */
    userNotesCount: (doc: NoteableDoc, withInternal: boolean) => keptUserNotesCount(doc, withInternal),
    /**
     * The notes' facts of one noteable (participation.ts): who takes part. The same read checks the
     * comment counts kept on the document and repairs them (note-counts.ts) without holding the answer.
     */
    async noteFacts(doc: NoteableDoc): Promise<NoteFacts[]> {
      const facts = await notes.noteFacts(doc);
      void notes.repairCounts(doc, facts).catch(() => undefined);
      return facts;
    },
    votes: votesOf,
    async milestone(id: number | null): Promise<MilestoneDoc | null> {
      return id ? noteables.milestone(id) : null;
    },
    /**
     * Milestone, user_notes_count and votes of every issuable of a page: one milestone read at most,
     * through the cache, whatever the page's size.
     */
    async pageExtras(docs: NoteableDoc[], withInternal: (doc: NoteableDoc) => boolean) {
      const milestoneIds = [...new Set(docs.flatMap((d) => (d.milestoneId ? [d.milestoneId] : [])))];
      const milestones = await noteables.milestones(milestoneIds);
      const milestoneById = new Map(milestones.map((m) => [m._id, m]));
      return new Map(
        docs.map((doc) => {
          const userNotesCount = keptUserNotesCount(doc, withInternal(doc));
          const milestone = milestoneById.get(doc.milestoneId ?? -1) ?? null;
          return [doc._id, { milestone, userNotesCount, votes: votesOf(doc) }];
        }),
      );
    },
  };
}
