import { z } from 'zod';
import { defineEndpoints, type EndpointDeclaration } from '../endpoint';
import { recordIdParam } from '../primitives';
import { discussionEntity, noteEntity } from './entities';
import {
  NOTE_OPERATIONS,
  THREAD_OPERATIONS,
  type NoteOperationIds,
  type ThreadOperationIds,
} from './thread-operations';
import {
  addDiscussionNoteBody,
  createCommitDiscussionBody,
  createThreadBody,
  createMergeRequestDiscussionBody,
  createNoteBody,
  listDiscussionsQuery,
  listNotesQuery,
  resolveDiscussionBody,
  updateNoteBody,
  updateSingleNoteBody,
} from './params';

/**
 * One noteable kind's addresses: its name in summaries, the path prefix of one noteable and how that path
 * names it. Its routes' operation ids are written out in thread-operations.ts.
 */
interface Noteable<S extends z.ZodRawShape, I extends z.ZodType> {
  name: string;
  prefix: string;
  /** `:noteable_id`: an id or iid (`type: Integer`), or for commits a SHA. */
  noteableId: I;
  /** What starting a thread accepts (merge requests and commits take a diff position). */
  createThread: z.ZodObject<S>;
  higherTier?: boolean;
}

/**
 * Reads an operation id with its literal type: a property of a generic object would read as its
 * constraint (string), and the handlers registered for the endpoint would lose its params.
 */
function literalIds<O extends object>(ids: O) {
  return <K extends keyof O>(key: K): O[K] => ids[key];
}

/** The path of one noteable, and of one thread and one note of it. */
function pathParams<I extends z.ZodType>(noteableId: I) {
  const noteable = z.object({ noteable_id: noteableId });
  const thread = noteable.extend({ discussion_id: z.string() });
  return { noteable, thread, note: thread.extend({ note_id: recordIdParam }) };
}

/**
 * The thread routes every noteable kind has. The generators keep each endpoint's type (its operation id,
 * its params schema), so handlers registered for them get typed params.
 */
function threadEndpoints<S extends z.ZodRawShape, I extends z.ZodType, const O extends ThreadOperationIds>(
  n: Noteable<S, I>,
  ids: O,
) {
  const tags = ['discussions'];
  const base = `${n.prefix}/discussions`;
  const one = `${base}/{discussion_id}`;
  const note = `${one}/notes/{note_id}`;
  const tier = n.higherTier ? { higherTier: true } : {};
  const path = pathParams(n.noteableId);
  const id = literalIds(ids);
  return [
    {
      method: 'GET',
      path: base,
      operationId: id('listDiscussions'),
      summary: `Threads of a ${n.name}, oldest first`,
      tags,
      auth: 'token',
      params: path.noteable.extend(listDiscussionsQuery.shape),
      response: { status: 200, description: 'Threads', schema: z.array(discussionEntity), paginated: true },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'GET',
      path: one,
      operationId: id('getDiscussion'),
      summary: 'One thread',
      tags,
      auth: 'token',
      params: path.thread,
      response: { status: 200, description: 'Thread', schema: discussionEntity },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'POST',
      path: base,
      operationId: id('createDiscussion'),
      summary: 'Start a thread',
      tags,
      auth: 'token',
      params: z.object({ ...path.noteable.shape, ...n.createThread.shape }),
      response: { status: 201, description: 'Thread', schema: discussionEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'GET',
      path: `${one}/notes`,
      operationId: id('listDiscussionNotes'),
      summary: 'Notes of a thread, oldest first',
      tags,
      auth: 'token',
      // GitLab presents the whole thread; paginated here like every other array (20 by default).
      params: path.thread.extend(listDiscussionsQuery.shape),
      response: { status: 200, description: 'Notes', schema: z.array(noteEntity), paginated: true },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'POST',
      path: `${one}/notes`,
      operationId: id('addDiscussionNote'),
      summary: 'Reply to a thread (turns a single comment into a thread where GitLab allows it)',
      tags,
      auth: 'token',
      params: path.thread.extend(addDiscussionNoteBody.shape),
      response: { status: 201, description: 'Note', schema: noteEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'GET',
      path: note,
      operationId: id('getDiscussionNote'),
      summary: 'One note of a thread',
      tags,
      auth: 'token',
      params: path.note,
      response: { status: 200, description: 'Note', schema: noteEntity },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'PUT',
      path: note,
      operationId: id('updateDiscussionNote'),
      summary: 'Edit a note (exactly one of body, resolved)',
      tags,
      auth: 'token',
      params: path.note.extend(updateNoteBody.shape),
      response: { status: 200, description: 'Note', schema: noteEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'DELETE',
      path: note,
      operationId: id('deleteDiscussionNote'),
      summary: 'Delete a note',
      tags,
      auth: 'token',
      params: path.note,
      response: { status: 204, description: 'Deleted' },
      errors: [401, 403, 404],
      ...tier,
    },
  ] as const satisfies readonly EndpointDeclaration[];
}

/** Resolving a whole thread (merge requests: lib/api/discussions.rb `resolvable_noteable`). */
function resolveEndpoint<S extends z.ZodRawShape, I extends z.ZodType, const O extends string>(
  n: Noteable<S, I>,
  operationId: O,
) {
  const one = `${n.prefix}/discussions/{discussion_id}`;
  const tags = ['discussions'];
  return [
    {
      method: 'PUT',
      path: one,
      operationId,
      summary: 'Resolve or unresolve a whole thread',
      tags,
      auth: 'token',
      params: pathParams(n.noteableId).thread.extend(resolveDiscussionBody.shape),
      response: { status: 200, description: 'Thread', schema: discussionEntity },
      errors: [400, 401, 403, 404],
    },
  ] as const satisfies readonly EndpointDeclaration[];
}

/** The Notes API (single comments), which commits do not have. */
function notesApiEndpoints<S extends z.ZodRawShape, I extends z.ZodType, const O extends NoteOperationIds>(
  n: Noteable<S, I>,
  ids: O,
) {
  const notes = `${n.prefix}/notes`;
  const tier = n.higherTier ? { higherTier: true } : {};
  const noteable = pathParams(n.noteableId).noteable;
  const note = noteable.extend({ note_id: recordIdParam });
  const id = literalIds(ids);
  return [
    {
      method: 'GET',
      path: notes,
      operationId: id('listNotes'),
      summary: 'All notes (Notes API)',
      tags: ['notes'],
      auth: 'token',
      params: noteable.extend(listNotesQuery.shape),
      response: { status: 200, description: 'Notes', schema: z.array(noteEntity), paginated: true },
      errors: [400, 401, 404],
      ...tier,
    },
    {
      method: 'POST',
      path: notes,
      operationId: id('createNote'),
      summary: 'Add a single comment',
      tags: ['notes'],
      auth: 'token',
      params: noteable.extend(createNoteBody.shape),
      response: { status: 201, description: 'Note', schema: noteEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'GET',
      path: `${notes}/{note_id}`,
      operationId: id('getNote'),
      summary: 'One note',
      tags: ['notes'],
      auth: 'token',
      params: note,
      response: { status: 200, description: 'Note', schema: noteEntity },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'PUT',
      path: `${notes}/{note_id}`,
      operationId: id('updateNote'),
      summary: 'Edit a note',
      tags: ['notes'],
      auth: 'token',
      params: note.extend(updateSingleNoteBody.shape),
      response: { status: 200, description: 'Note', schema: noteEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'DELETE',
      path: `${notes}/{note_id}`,
      operationId: id('deleteNote'),
      summary: 'Delete a note',
      tags: ['notes'],
      auth: 'token',
      params: note,
      response: { status: 204, description: 'Deleted' },
      errors: [401, 403, 404],
      ...tier,
    },
  ] as const satisfies readonly EndpointDeclaration[];
}

/** The same endpoints at a second prefix GitLab also answers (`/projects/:id/commits/:commit_id`). */
function alsoAt<const T extends readonly EndpointDeclaration[]>(
  prefix: string,
  alias: string,
  endpoints: T,
): T {
  return endpoints.map((e) => ({ ...e, alsoAt: alias + e.path.slice(prefix.length) })) as unknown as T;
}

const issue = {
  name: 'Issue',
  prefix: '/projects/{id}/issues/{noteable_id}',
  noteableId: recordIdParam,
  createThread: createThreadBody,
};
const mergeRequest = {
  name: 'MergeRequest',
  prefix: '/projects/{id}/merge_requests/{noteable_id}',
  noteableId: recordIdParam,
  createThread: createMergeRequestDiscussionBody,
};
const snippet = {
  name: 'Snippet',
  prefix: '/projects/{id}/snippets/{noteable_id}',
  noteableId: recordIdParam,
  // Validated as on the other noteables (and the snippet Notes API); a snippet note is never internal.
  createThread: createThreadBody,
};
const epic = {
  name: 'Epic',
  prefix: '/groups/{id}/epics/{noteable_id}',
  noteableId: recordIdParam,
  createThread: createThreadBody,
  higherTier: true,
};
const commit = {
  name: 'Commit',
  prefix: '/projects/{id}/repository/commits/{noteable_id}',
  noteableId: z.string(),
  createThread: createCommitDiscussionBody,
};

/** Threads and notes on every noteable kind: the same routes under each kind's path. */
export const THREAD_ENDPOINTS = defineEndpoints('discussions', [
  ...threadEndpoints(issue, THREAD_OPERATIONS.Issue),
  ...notesApiEndpoints(issue, NOTE_OPERATIONS.Issue),
  ...threadEndpoints(mergeRequest, THREAD_OPERATIONS.MergeRequest),
  ...resolveEndpoint(mergeRequest, 'resolveMergeRequestDiscussion'),
  ...notesApiEndpoints(mergeRequest, NOTE_OPERATIONS.MergeRequest),
  ...threadEndpoints(snippet, THREAD_OPERATIONS.Snippet),
  ...notesApiEndpoints(snippet, NOTE_OPERATIONS.Snippet),
  ...threadEndpoints(epic, THREAD_OPERATIONS.Epic),
  ...notesApiEndpoints(epic, NOTE_OPERATIONS.Epic),
  ...alsoAt(
    commit.prefix,
    '/projects/{id}/commits/{noteable_id}',
    threadEndpoints(commit, THREAD_OPERATIONS.Commit),
  ),
]);
