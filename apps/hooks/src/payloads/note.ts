import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  noteChangedData,
  noteCreatedData,
  type NoteChangedData,
  type NoteCreatedData,
  type NoteEntity,
} from '@gl/contracts';
import { eventData, isWholeText } from '@gl/service-kit';
import type { BuildInput } from './build';
import { issueHookAttrs, mergeRequestHookAttrs } from './issuable';
import { GHOST_USER, projectHookAttrs, repositoryAttrs, userHookAttrs } from './project';

const T = DOMAIN_EVENT_TYPES.discussions;

/**
 * The `object_attributes.action` of each note event. GitLab sends note hooks on creation only
 * (Notes::PostProcessService#execute_note_hooks); edits and deletions are sent too, with the action named
 * as issuable hooks name theirs (`update`) and `delete` for a deletion.
 */
export const NOTE_ACTIONS: Record<string, 'create' | 'update' | 'delete'> = {
  [T.noteCreated]: 'create',
  [T.noteUpdated]: 'update',
  [T.noteDeleted]: 'delete',
};

/** What Note#hook_attrs reads of a note: the notes API's entity, or a deleted note's event. */
type HookNote = Omit<
  Pick<
    NoteEntity,
    | 'commit_id'
    | 'created_at'
    | 'id'
    | 'body'
    | 'noteable_id'
    | 'noteable_type'
    | 'position'
    | 'project_id'
    | 'resolved_at'
    | 'resolved_by'
    | 'system'
    | 'type'
    | 'updated_at'
    | 'confidential'
    | 'internal'
  >,
  'resolved_by'
> & { author: { id: number; avatar_url?: string | null }; resolved_by?: { id: number } | null };

/**
 * A note as its event saw it, for when the notes API has it no more: its body an excerpt
 * (EVENT_TEXT_LIMITS.noteBody), its resolution unknown.
 */
function noteFromEvent(data: NoteChangedData, projectId: number): HookNote {
  return {
    id: data.noteId,
    type: data.noteType,
    body: data.body,
    author: {
      id: data.authorId,
      ...(data.authorAvatarUrl !== undefined && { avatar_url: data.authorAvatarUrl }),
    },
    created_at: data.createdAt,
    updated_at: data.updatedAt,
    system: data.system,
    noteable_id: data.noteableId,
    noteable_type: data.noteableType,
    project_id: projectId,
    commit_id: data.commitId,
    confidential: data.audience?.confidential ?? false,
    internal: data.audience?.internal ?? false,
  };
}

/**
 * A new comment on an issue or snippet whose event carries all a payload shows of it: its whole body, its
 * author's avatar, no diff position, and nothing resolved (only merge request threads resolve). Its payload is built from
 * the event, without reading the note back: what was created, as GitLab's NewNoteWorker shows it unless
 * the note was edited before the worker ran (an edit here sends its own `update` payload).
 */
function carriedWhole(action: string, data: NoteChangedData | NoteCreatedData): boolean {
  return (
    action === 'create' &&
    (data.noteableType === 'Issue' || data.noteableType === 'Snippet') &&
    data.noteType !== 'DiffNote' &&
    data.authorAvatarUrl !== undefined &&
    isWholeText(data.body, EVENT_TEXT_LIMITS.noteBody)
  );
}

/** Note#hook_attrs' columns (app/models/note.rb), as Gitlab::DataBuilder::Note#build sends them. */
function noteAttrs(
  note: HookNote,
  url: string,
  discussionId: string,
  action: string,
  updatedById: number | null,
) {
  return {
    attachment: null,
    author_id: note.author.id,
    change_position: null,
    commit_id: note.commit_id ?? null,
    created_at: note.created_at,
    discussion_id: discussionId,
    id: note.id,
    line_code: null as string | null,
    note: note.body,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    original_position: null,
    position: note.position ?? null,
    project_id: note.project_id,
    resolved_at: note.resolved_at ?? null,
    resolved_by_id: note.resolved_by?.id ?? null,
    resolved_by_push: null as boolean | null,
    st_diff: null,
    system: note.system,
    type: note.type,
    updated_at: note.updated_at,
    updated_by_id: updatedById,
    description: note.body,
    confidential: note.confidential,
    internal: note.internal,
    url,
    action,
  };
}

/**
 * Gitlab::DataBuilder::Note#build (lib/gitlab/data_builder/note.rb): the note and its noteable, or null
 * when either is gone by now (a changed note: when its noteable is).
 */
export async function notePayload(input: BuildInput, confidential: boolean) {
  const { event, project, externalUrl, source } = input;
  const action = NOTE_ACTIONS[event.type]!;
  const data = action === 'create' ? eventData(noteCreatedData, event) : eventData(noteChangedData, event);
  const projectAttrs = projectHookAttrs(project, externalUrl);
  const base = {
    object_kind: 'note',
    event_type: confidential ? 'confidential_note' : 'note',
    project_id: project.id,
    project: projectAttrs,
    repository: repositoryAttrs(project, externalUrl),
  };
  const anchor = `#note_${data.noteId}`;
  const actor = event.actor ?? GHOST_USER;
  // A deleted note is shown from its event; so is a created or edited one deleted before its event was
  // consumed: the creation or edit happened, and the hook that later gets its deletion should have seen
  // it (GitLab's NewNoteWorker finds nothing then and sends nothing; we promise every change is sent).
  const fromEvent = (): HookNote =>
    noteFromEvent(
      action === 'create'
        ? { ...data, authorId: event.actor?.id ?? GHOST_USER.id, updatedAt: data.createdAt }
        : (data as NoteChangedData),
      project.id,
    );
  const noteAt = async (noteable: string): Promise<HookNote | null> => {
    if (action === 'delete' || carriedWhole(action, data)) return fromEvent();
    return (await source.note(project, noteable, data.noteId)) ?? fromEvent();
  };
  const noteHook = (note: HookNote, webUrl: string) => ({
    user: userHookAttrs(actor, [note.author]),
    object_attributes: noteAttrs(
      note,
      `${webUrl}${anchor}`,
      data.discussionId,
      action,
      // Notes::UpdateService sets `updated_by` to whoever edits: an edit's actor. A new note has none yet;
      // a deleted one's last editor is not carried (null).
      action === 'update' ? (event.actor?.id ?? null) : null,
    ),
  });
  switch (data.noteableType) {
    case 'Issue': {
      const [issue, note] = await Promise.all([
        source.issue(project, data.noteableIid!),
        noteAt(`issues/${data.noteableIid}`),
      ]);
      if (!issue || !note) return null;
      return Object.assign(base, noteHook(note, issue.web_url), { issue: issueHookAttrs(issue) });
    }
    case 'MergeRequest': {
      const [mr, note] = await Promise.all([
        source.mergeRequest(project, data.noteableIid!),
        noteAt(`merge_requests/${data.noteableIid}`),
      ]);
      if (!mr || !note) return null;
      return Object.assign(base, noteHook(note, mr.web_url), {
        merge_request: mergeRequestHookAttrs(mr, projectAttrs),
      });
    }
    case 'Snippet': {
      const [snippet, note] = await Promise.all([
        source.snippet(project, data.noteableId!),
        noteAt(`snippets/${data.noteableId}`),
      ]);
      if (!snippet || !note) return null;
      return Object.assign(base, noteHook(note, snippet.web_url), {
        snippet: {
          id: snippet.id,
          title: snippet.title,
          description: snippet.description,
          content: '',
          author_id: snippet.author.id,
          project_id: snippet.project_id,
          created_at: snippet.created_at,
          updated_at: snippet.updated_at,
          file_name: snippet.file_name,
          type: 'ProjectSnippet',
          visibility_level: { private: 0, internal: 10, public: 20 }[snippet.visibility],
          url: snippet.web_url,
        },
      });
    }
    case 'Commit': {
      // Commit notes are not served by id; the event carries what the payload shows of them.
      const webUrl = projectAttrs.web_url;
      return Object.assign(base, {
        user: userHookAttrs(actor, []),
        object_attributes: {
          attachment: null,
          author_id: 'authorId' in data ? data.authorId : (event.actor?.id ?? null),
          commit_id: data.commitId,
          created_at: data.createdAt,
          discussion_id: data.discussionId,
          id: data.noteId,
          note: data.body,
          noteable_id: null,
          noteable_type: 'Commit',
          project_id: project.id,
          system: data.system,
          type: data.noteType,
          description: data.body,
          url: `${webUrl}/-/commit/${data.commitId}${anchor}`,
          action,
        },
        commit: {
          id: data.commitId,
          title: data.targetTitle,
          url: `${webUrl}/-/commit/${data.commitId}`,
        },
      });
    }
    default:
      return null;
  }
}
