import type { DiscussionEntity, NoteEntity, PositionEntity, PositionParam } from '@gl/contracts';
import type { NoteDoc } from './note.model';
import { isResolvable, isThreadResolved, takesResolution } from './note-rules';
import { iso, isoNow } from '../common/presenting';

function presentPosition(position: PositionParam): PositionEntity {
  const out: PositionEntity = {
    base_sha: position.base_sha,
    start_sha: position.start_sha,
    head_sha: position.head_sha,
    old_path: position.old_path ?? null,
    new_path: position.new_path ?? null,
    position_type: position.position_type,
  };
  if (position.position_type === 'image') {
    Object.assign(out, {
      width: position.width ?? null,
      height: position.height ?? null,
      x: position.x ?? null,
      y: position.y ?? null,
    });
  } else {
    Object.assign(out, {
      old_line: position.old_line ?? null,
      new_line: position.new_line ?? null,
      line_range: position.line_range ?? null,
    });
  }
  return out;
}

export function presentNote(note: NoteDoc): NoteEntity {
  const entity: NoteEntity = {
    id: note._id,
    type: note.type,
    body: note.body,
    attachment: null,
    author: note.author,
    created_at: isoNow(note.createdAt),
    updated_at: isoNow(note.updatedAt),
    system: note.system,
    noteable_id: note.noteableId,
    noteable_type: note.noteableType,
    project_id: note.projectId,
    resolvable: isResolvable(note),
    // The API exposes the flag under both names (`confidential` is the deprecated one).
    confidential: note.internal ?? false,
    internal: note.internal ?? false,
    imported: false,
    imported_from: 'none',
    noteable_iid: note.noteableIid,
    commands_changes: {},
  };
  if (note.type === 'DiffNote' && note.noteableType === 'MergeRequest') entity.commit_id = note.commitId;
  if (note.type === 'DiffNote' && note.position) entity.position = presentPosition(note.position);
  if (takesResolution(note)) {
    entity.resolved = note.resolvedAt !== null && note.resolvedAt !== undefined;
    entity.resolved_by = note.resolvedBy ?? null;
    entity.resolved_at = iso(note.resolvedAt);
  }
  return entity;
}

/** A thread from its notes (oldest first). Individual = its first note is a single comment or system note. */
export function presentDiscussion(notes: NoteDoc[]): DiscussionEntity {
  const first = notes[0]!;
  const entity: DiscussionEntity = {
    id: first.discussionId,
    individual_note: first.type === null,
    notes: notes.map(presentNote),
  };
  if (first.noteableType === 'MergeRequest') {
    entity.resolvable = notes.some(isResolvable);
    if (entity.resolvable) entity.resolved = isThreadResolved(notes);
  }
  return entity;
}
