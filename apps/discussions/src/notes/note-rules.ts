import type { NoteDoc } from './note.model';

/** What GitLab's note models decide about resolving (app/models/concerns/resolvable_note.rb, resolvable_discussion.rb). */

/** DiscussionNote and DiffNote on merge requests can be resolved; single comments and system notes cannot. */
export function isResolvable(note: Pick<NoteDoc, 'noteableType' | 'system' | 'type'>): boolean {
  return note.noteableType === 'MergeRequest' && !note.system && note.type !== null;
}

/**
 * Notes that take `resolved` (shown and set through the API): resolvable ones, and commit comments too (the
 * spec's example), without those being resolvable threads.
 */
export function takesResolution(note: Pick<NoteDoc, 'noteableType' | 'system' | 'type'>): boolean {
  return isResolvable(note) || (note.noteableType === 'Commit' && !note.system);
}

/** A thread is resolved when it has resolvable notes and every one of them is resolved. */
export function isThreadResolved(notes: NoteDoc[]): boolean {
  const resolvable = notes.filter(isResolvable);
  return resolvable.length > 0 && resolvable.every((n) => n.resolvedAt);
}
