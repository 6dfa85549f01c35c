import type { NoteableDoc } from './noteable.model';
import type { NoteablesStore } from './noteables.store';
import type { MilestoneDoc } from '../copies/copies.models';
import type { NotesStore } from '../notes/notes.store';
import type { AwardEmojiStore, Votes } from '../award-emoji/award-emoji.store';
import { DOWNVOTE_NAME, UPVOTE_NAME } from '../award-emoji/emoji-names';

const VOTE_NAMES = { up: UPVOTE_NAME, down: DOWNVOTE_NAME };
const NO_VOTES: Votes = { upvotes: 0, downvotes: 0 };

/**
 * What an issue or merge request shows besides its own document: its milestone, user_notes_count and votes
 * (the thumbsup and thumbsdown awards).
 */
export function createIssuableExtras(stores: {
  notes: Pick<NotesStore, 'userNotesCount' | 'userNoteCounts' | 'noteFacts'>;
  noteables: Pick<NoteablesStore, 'milestone' | 'milestones'>;
  awards: Pick<AwardEmojiStore, 'votes'>;
}) {
  const { notes, noteables, awards } = stores;
  return {
    /** GitLab's user_notes_count: comments, not system notes; internal ones only for who reads them. */
    async userNotesCount(doc: NoteableDoc, withInternal: boolean) {
      return notes.userNotesCount(doc, withInternal);
    },
    /** The notes' facts of one noteable (participation.ts): its count and participation from one read. */
    noteFacts: (doc: NoteableDoc) => notes.noteFacts(doc),
    /** GitLab's `upvotes` and `downvotes` of one issue or merge request. */
    async votes(doc: NoteableDoc): Promise<Votes> {
      return (await awards.votes(doc.kind, [doc._id], VOTE_NAMES)).get(doc._id) ?? NO_VOTES;
    },
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
      const [milestones, counts, votes] = await Promise.all([
        noteables.milestones(milestoneIds),
        notes.userNoteCounts(docs),
        docs.length > 0
          ? awards.votes(
              docs[0]!.kind,
              docs.map((d) => d._id),
              VOTE_NAMES,
            )
          : new Map<number, Votes>(),
      ]);
      const milestoneById = new Map(milestones.map((m) => [m._id, m]));
      return new Map(
        docs.map((doc) => {
          const internalToo = withInternal(doc);
          const userNotesCount = counts
            .filter((c) => c._id.noteable === doc._id && (internalToo || c._id.internal !== true))
            .reduce((sum, c) => sum + c.n, 0);
          const milestone = milestoneById.get(doc.milestoneId ?? -1) ?? null;
          return [doc._id, { milestone, userNotesCount, votes: votes.get(doc._id) ?? NO_VOTES }];
        }),
      );
    },
  };
}
