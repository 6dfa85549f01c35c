import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { snippetEntity } from './entities';
import { updateSnippetBody } from './params';

/** Project snippets beyond create, list and read: change, raw content, deletion (lib/api/project_snippets.rb). */
export const SNIPPET_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'PUT',
    path: '/projects/{id}/snippets/{snippet_id}',
    operationId: 'updateProjectSnippet',
    summary: 'Change a project snippet (its author, Maintainers and up)',
    tags: ['snippets'],
    auth: 'token',
    params: updateSnippetBody,
    response: { status: 200, description: 'Snippet', schema: snippetEntity },
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: 'GET',
    path: '/projects/{id}/snippets/{snippet_id}/raw',
    operationId: 'getProjectSnippetRaw',
    summary: "A project snippet's content as plain text",
    tags: ['snippets'],
    auth: 'optional-token',
    response: { status: 200, description: 'The content', contentType: 'text/plain', schema: z.string() },
    errors: [401, 404],
  },
  {
    method: 'DELETE',
    path: '/projects/{id}/snippets/{snippet_id}',
    operationId: 'deleteProjectSnippet',
    summary: 'Delete a project snippet (its author, Maintainers and up)',
    tags: ['snippets'],
    auth: 'token',
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
  },
]);
