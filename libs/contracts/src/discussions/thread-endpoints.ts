import { z } from 'zod';
import { defineEndpoints, type EndpointDeclaration } from '../endpoint';
import { discussionEntity, noteEntity } from './entities';
import {
  addDiscussionNoteBody,
  createCommitDiscussionBody,
  createDiscussionBody,
  createThreadBody,
  createMergeRequestDiscussionBody,
  createNoteBody,
  listDiscussionsQuery,
  listNotesQuery,
  resolveDiscussionBody,
  updateNoteBody,
  updateSingleNoteBody,
} from './params';

interface NoteablePath {
  name: string;
  prefix: string;
  createThread: z.ZodObject;
  resolvable: boolean;
  notesApi: boolean;
  higherTier?: boolean;
  /** A second prefix GitLab answers for the same noteable (the spec's `/projects/:id/commits/:commit_id`). */
  alias?: string;
}

const NOTEABLE_PATHS: NoteablePath[] = [
  {
    name: 'Issue',
    prefix: '/projects/{id}/issues/{noteable_id}',
    createThread: createThreadBody,
    resolvable: false,
    notesApi: true,
  },
  {
    name: 'MergeRequest',
    prefix: '/projects/{id}/merge_requests/{noteable_id}',
    createThread: createMergeRequestDiscussionBody,
    resolvable: true,
    notesApi: true,
  },
  {
    name: 'Snippet',
    prefix: '/projects/{id}/snippets/{noteable_id}',
    createThread: createDiscussionBody,
    resolvable: false,
    notesApi: true,
  },
  {
    name: 'Epic',
    prefix: '/groups/{id}/epics/{noteable_id}',
    createThread: createThreadBody,
    resolvable: false,
    notesApi: true,
    higherTier: true,
  },
  {
    name: 'Commit',
    prefix: '/projects/{id}/repository/commits/{noteable_id}',
    alias: '/projects/{id}/commits/{noteable_id}',
    createThread: createCommitDiscussionBody,
    resolvable: false,
    notesApi: false,
  },
];

/** Threads and notes on every noteable kind: the same routes under each kind's path. */
const threadEndpoints = NOTEABLE_PATHS.flatMap((n): EndpointDeclaration[] => {
  const tags = ['discussions'];
  const base = `${n.prefix}/discussions`;
  const one = `${base}/{discussion_id}`;
  const note = `${one}/notes/{note_id}`;
  const tier = n.higherTier ? { higherTier: true } : {};
  const list: EndpointDeclaration[] = [
    {
      method: 'GET',
      path: base,
      operationId: `list${n.name}Discussions`,
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
      operationId: `get${n.name}Discussion`,
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
      operationId: `create${n.name}Discussion`,
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
      operationId: `list${n.name}DiscussionNotes`,
      summary: 'Notes of a thread',
      tags,
      auth: 'token',
      response: { status: 200, description: 'Notes', schema: z.array(noteEntity) },
      errors: [401, 404],
      ...tier,
    },
    {
      method: 'POST',
      path: `${one}/notes`,
      operationId: `add${n.name}DiscussionNote`,
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
      operationId: `get${n.name}DiscussionNote`,
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
      operationId: `update${n.name}DiscussionNote`,
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
      operationId: `delete${n.name}DiscussionNote`,
      summary: 'Delete a note',
      tags,
      auth: 'token',
      response: { status: 204, description: 'Deleted' },
      errors: [401, 403, 404],
      ...tier,
    },
  ];
  if (n.resolvable) {
    list.push({
      method: 'PUT',
      path: one,
      operationId: `resolve${n.name}Discussion`,
      summary: 'Resolve or unresolve a whole thread',
      tags,
      auth: 'token',
      params: resolveDiscussionBody,
      response: { status: 200, description: 'Thread', schema: discussionEntity },
      errors: [400, 401, 403, 404],
    });
  }
  if (n.notesApi) {
    const notes = `${n.prefix}/notes`;
    list.push(
      {
        method: 'GET',
        path: notes,
        operationId: `list${n.name}Notes`,
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
        operationId: `create${n.name}Note`,
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
        operationId: `get${n.name}Note`,
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
        operationId: `update${n.name}Note`,
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
        operationId: `delete${n.name}Note`,
        summary: 'Delete a note',
        tags: ['notes'],
        auth: 'token',
        response: { status: 204, description: 'Deleted' },
        errors: [401, 403, 404],
        ...tier,
      },
    );
  }
  const { alias } = n;
  return alias ? list.map((e) => ({ ...e, alsoAt: alias + e.path.slice(n.prefix.length) })) : list;
});

export const THREAD_ENDPOINTS = defineEndpoints('discussions', threadEndpoints);
