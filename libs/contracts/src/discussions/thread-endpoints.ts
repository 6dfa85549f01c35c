import { z } from 'zod';
import { defineEndpoints, type EndpointDeclaration } from '../endpoint';
import { discussionEntity, noteEntity } from './entities';
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

/** One noteable kind's addresses: its name in operation ids, and the path prefix of one noteable. */
interface Noteable<N extends string, S extends z.ZodObject> {
  name: N;
  prefix: string;
  /** What starting a thread accepts (merge requests and commits take a diff position). */
  createThread: S;
  higherTier?: boolean;
}

/**
 * The thread routes every noteable kind has. The generators keep each endpoint's type (operation ids like
 * `listIssueDiscussions`, each one's params schema), so handlers registered for them get typed params.
 */
function threadEndpoints<const N extends string, S extends z.ZodObject>(n: Noteable<N, S>) {
  const tags = ['discussions'];
  const base = `${n.prefix}/discussions`;
  const one = `${base}/{discussion_id}`;
  const note = `${one}/notes/{note_id}`;
  const tier = n.higherTier ? { higherTier: true } : {};
  return [
    {
      method: 'GET',
      path: base,
      operationId: `list${n.name}Discussions` as const,
      summary: `Threads of a ${n.name}, oldest first`,
      tags,
      auth: 'token',
      params: listDiscussionsQuery,
      response: { status: 200, description: 'Threads', schema: z.array(discussionEntity), paginated: true },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'GET',
      path: one,
      operationId: `get${n.name}Discussion` as const,
      summary: 'One thread',
      tags,
      auth: 'token',
      response: { status: 200, description: 'Thread', schema: discussionEntity },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'POST',
      path: base,
      operationId: `create${n.name}Discussion` as const,
      summary: 'Start a thread',
      tags,
      auth: 'token',
      params: n.createThread,
      response: { status: 201, description: 'Thread', schema: discussionEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'GET',
      path: `${one}/notes`,
      operationId: `list${n.name}DiscussionNotes` as const,
      summary: 'Notes of a thread, oldest first',
      tags,
      auth: 'token',
      // GitLab presents the whole thread; paginated here like every other array (20 by default).
      params: listDiscussionsQuery,
      response: { status: 200, description: 'Notes', schema: z.array(noteEntity), paginated: true },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'POST',
      path: `${one}/notes`,
      operationId: `add${n.name}DiscussionNote` as const,
      summary: 'Reply to a thread (turns a single comment into a thread where GitLab allows it)',
      tags,
      auth: 'token',
      params: addDiscussionNoteBody,
      response: { status: 201, description: 'Note', schema: noteEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'GET',
      path: note,
      operationId: `get${n.name}DiscussionNote` as const,
      summary: 'One note of a thread',
      tags,
      auth: 'token',
      response: { status: 200, description: 'Note', schema: noteEntity },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'PUT',
      path: note,
      operationId: `update${n.name}DiscussionNote` as const,
      summary: 'Edit a note (exactly one of body, resolved)',
      tags,
      auth: 'token',
      params: updateNoteBody,
      response: { status: 200, description: 'Note', schema: noteEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'DELETE',
      path: note,
      operationId: `delete${n.name}DiscussionNote` as const,
      summary: 'Delete a note',
      tags,
      auth: 'token',
      response: { status: 204, description: 'Deleted' },
      errors: [401, 403, 404],
      ...tier,
    },
  ] as const satisfies readonly EndpointDeclaration[];
}

/** Resolving a whole thread (merge requests: lib/api/discussions.rb `resolvable_noteable`). */
function resolveEndpoint<const N extends string>(n: Noteable<N, z.ZodObject>) {
  const one = `${n.prefix}/discussions/{discussion_id}`;
  const tags = ['discussions'];
  return [
    {
      method: 'PUT',
      path: one,
      operationId: `resolve${n.name}Discussion` as const,
      summary: 'Resolve or unresolve a whole thread',
      tags,
      auth: 'token',
      params: resolveDiscussionBody,
      response: { status: 200, description: 'Thread', schema: discussionEntity },
      errors: [400, 401, 403, 404],
    },
  ] as const satisfies readonly EndpointDeclaration[];
}

/** The Notes API (single comments), which commits do not have. */
function notesApiEndpoints<const N extends string>(n: Noteable<N, z.ZodObject>) {
  const notes = `${n.prefix}/notes`;
  const tier = n.higherTier ? { higherTier: true } : {};
  return [
    {
      method: 'GET',
      path: notes,
      operationId: `list${n.name}Notes` as const,
      summary: 'All notes (Notes API)',
      tags: ['notes'],
      auth: 'token',
      params: listNotesQuery,
      response: { status: 200, description: 'Notes', schema: z.array(noteEntity), paginated: true },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'POST',
      path: notes,
      operationId: `create${n.name}Note` as const,
      summary: 'Add a single comment',
      tags: ['notes'],
      auth: 'token',
      params: createNoteBody,
      response: { status: 201, description: 'Note', schema: noteEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'GET',
      path: `${notes}/{note_id}`,
      operationId: `get${n.name}Note` as const,
      summary: 'One note',
      tags: ['notes'],
      auth: 'token',
      response: { status: 200, description: 'Note', schema: noteEntity },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'PUT',
      path: `${notes}/{note_id}`,
      operationId: `update${n.name}Note` as const,
      summary: 'Edit a note',
      tags: ['notes'],
      auth: 'token',
      params: updateSingleNoteBody,
      response: { status: 200, description: 'Note', schema: noteEntity },
      errors: [400, 401, 403, 404],
      ...tier,
    },
    {
      method: 'DELETE',
      path: `${notes}/{note_id}`,
      operationId: `delete${n.name}Note` as const,
      summary: 'Delete a note',
      tags: ['notes'],
      auth: 'token',
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
  createThread: createThreadBody,
} as const;
const mergeRequest = {
  name: 'MergeRequest',
  prefix: '/projects/{id}/merge_requests/{noteable_id}',
  createThread: createMergeRequestDiscussionBody,
} as const;
const snippet = {
  name: 'Snippet',
  prefix: '/projects/{id}/snippets/{noteable_id}',
  // Validated as on the other noteables (and the snippet Notes API); a snippet note is never internal.
  createThread: createThreadBody,
} as const;
const epic = {
  name: 'Epic',
  prefix: '/groups/{id}/epics/{noteable_id}',
  createThread: createThreadBody,
  higherTier: true,
} as const;
const commit = {
  name: 'Commit',
  prefix: '/projects/{id}/repository/commits/{noteable_id}',
  createThread: createCommitDiscussionBody,
} as const;

/** Threads and notes on every noteable kind: the same routes under each kind's path. */
export const THREAD_ENDPOINTS = defineEndpoints('discussions', [
  ...threadEndpoints(issue),
  ...notesApiEndpoints(issue),
  ...threadEndpoints(mergeRequest),
  ...resolveEndpoint(mergeRequest),
  ...notesApiEndpoints(mergeRequest),
  ...threadEndpoints(snippet),
  ...notesApiEndpoints(snippet),
  ...threadEndpoints(epic),
  ...notesApiEndpoints(epic),
  ...alsoAt(commit.prefix, '/projects/{id}/commits/{noteable_id}', threadEndpoints(commit)),
]);
