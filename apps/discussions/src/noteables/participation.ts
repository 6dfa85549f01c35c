import type { NoteDoc } from '../notes/note.model';
import type { NoteableDoc } from './noteable.model';

/** A user mention in a description or comment (Gitlab::ReferenceExtractor's `@username`). */
export const MENTION = /(?:^|[^\w.@/-])@([\w][\w.-]*[\w]|\w)/g;

/** What one read of a noteable's notes keeps: enough to count the comments and to find who takes part. */
export type NoteFacts = Pick<NoteDoc, '_id' | 'author' | 'body' | 'system' | 'internal'>;

/** GitLab's user_notes_count from the notes' facts: comments, internal ones only for who reads them. */
export function userNotesCountOf(notes: NoteFacts[], withInternal: boolean): number {
  return notes.filter((n) => n.system === false && (withInternal || n.internal !== true)).length;
}

/**
 * Whether the user is among Issuable#participants (issue-relations.ts `participants`) through the notes
 * or the description: a readable note's author, or mentioned in the description or a readable comment.
 * A mention names the user as the participants' lookup of the users copy matches it: the name as
 * written or in lower case. Author, assignees and reviewers are decided before the notes are read.
 */
export function takesPartInNotes(
  doc: Pick<NoteableDoc, 'description'>,
  notes: NoteFacts[],
  user: { id: number; username: string },
  readsNote: (note: NoteFacts) => boolean,
): boolean {
  const names = (text: string | null | undefined) =>
    [...(text ?? '').matchAll(MENTION)].some(
      ([, name]) => name === user.username || name!.toLowerCase() === user.username,
    );
  if (names(doc.description)) return true;
  return notes.some((n) => readsNote(n) && (n.author.id === user.id || (!n.system && names(n.body))));
}
