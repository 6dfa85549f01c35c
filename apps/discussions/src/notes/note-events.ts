import {
  DOMAIN_EVENT_TYPES,
  carriedAuthorAvatar,
  EVENT_TEXT_LIMITS,
  type NoteChangedData,
  type NoteCreatedData,
  type TargetAudience,
  type UserSummary,
} from '@gl/contracts';
import { createEvent, excerpt, type EventOrigin } from '@gl/service-kit';
import type { NoteDoc } from './note.model';
import type { NoteTarget } from './note-target';
import { actorOf } from '../common/access';

/** A note event's audience: its noteable's, and whether the note is internal. */
function audienceOfNote(target: NoteTarget, note: NoteDoc): TargetAudience {
  const { kind: _kind, ...audience } = target.access;
  return { ...audience, internal: note.internal ?? false };
}

/** What every note event carries of the note and its noteable (`gl.discussions.note.created`'s data). */
export function noteEventData(target: NoteTarget, note: NoteDoc): NoteCreatedData {
  return {
    noteId: note._id,
    noteType: note.type,
    discussionId: note.discussionId,
    // An excerpt: events stay small whatever the note (EVENT_TEXT_LIMITS).
    body: excerpt(note.body, EVENT_TEXT_LIMITS.noteBody),
    system: note.system,
    createdAt: new Date(note.createdAt).toISOString(),
    noteableType: target.type,
    noteableId: target.noteableId,
    noteableIid: target.noteableIid,
    commitId: target.commitSha,
    targetTitle: excerpt(target.title, EVENT_TEXT_LIMITS.title),
    audience: audienceOfNote(target, note),
    ...carriedAuthorAvatar(note.author.avatar_url),
  };
}

/**
 * `gl.discussions.note.updated` / `note.deleted` for a note as it is after its edit or before its deletion,
 * written with that change. GitLab runs note hooks on creation only (Notes::PostProcessService); these let
 * the hooks service deliver edits and deletions too, and the activity log ignores them as GitLab records
 * neither (EventCreateService has no note update or destroy).
 */
export function noteChangedEvent(
  origin: EventOrigin,
  change: 'updated' | 'deleted',
  target: NoteTarget,
  note: NoteDoc,
  actor: UserSummary,
) {
  const types = DOMAIN_EVENT_TYPES.discussions;
  return createEvent(origin, {
    type: change === 'updated' ? types.noteUpdated : types.noteDeleted,
    actor: actorOf(actor),
    projectId: target.projectId,
    groupId: target.groupId,
    data: {
      ...noteEventData(target, note),
      authorId: note.author.id,
      updatedAt: new Date(note.updatedAt).toISOString(),
    } satisfies NoteChangedData,
  });
}
