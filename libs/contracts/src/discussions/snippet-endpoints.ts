import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { paginationQuery } from '../pagination';
import { snippetEntity } from './entities';
import { dateTimeParam } from './list-params';
import { createSnippetBody, updateSnippetBody } from './params';
import { personalSnippetPath, projectSnippetPath } from './path-params';

/**
 * Entities::Snippet / Entities::PersonalSnippet: a project snippet's entity, `project_id` null for a
 * personal snippet (the lists of /snippets show both kinds).
 */
export const personalSnippetEntity = snippetEntity.extend({ project_id: z.number().int().nullable() });
export type PersonalSnippetEntity = z.infer<typeof personalSnippetEntity>;

/** lib/api/snippets.rb list parameters: the creation window and the page. */
export const snippetListQuery = paginationQuery.extend({
  created_after: dateTimeParam.optional(),
  created_before: dateTimeParam.optional(),
});

/** lib/api/helpers/snippets_helpers.rb `raw_file_params`: the ref and the URL-encoded path of one file. */
const rawFileParams = z.object({ ref: z.string(), file_path: z.string() });

const snippetList = {
  status: 200,
  description: 'Snippets',
  schema: z.array(personalSnippetEntity),
  paginated: true,
} as const;
const rawContent = {
  status: 200,
  description: 'The content',
  contentType: 'text/plain',
  schema: z.string(),
} as const;

/**
 * The two raw routes of a snippet (lib/api/snippets.rb and lib/api/project_snippets.rb `raw`, and
 * `files/:ref/:file_path/raw` of snippets_helpers.rb): project and personal snippets answer them alike.
 */
function rawSnippetEndpoints<
  const R extends string,
  const F extends string,
  P extends z.ZodObject,
  Q extends z.ZodObject,
>(s: {
  /** The path of one snippet, e.g. `/snippets/{id}`. */
  path: string;
  /** Its id in the path. */
  idParam: P;
  /** The id, then `raw_file_params`. */
  fileParams: Q;
  rawId: R;
  fileRawId: F;
  /** "A project snippet's content", "A snippet's first file". */
  rawSummary: string;
  /** "One file of a project snippet". */
  fileSummary: string;
}) {
  const common = {
    method: 'GET' as const,
    tags: ['snippets'],
    auth: 'optional-token' as const,
    response: rawContent,
    errors: [401, 404],
  };
  return [
    {
      ...common,
      path: `${s.path}/raw`,
      operationId: s.rawId,
      summary: `${s.rawSummary} as plain text`,
      params: s.idParam,
    },
    {
      ...common,
      path: `${s.path}/files/{ref}/{file_path}/raw`,
      operationId: s.fileRawId,
      summary: `${s.fileSummary} as plain text (ref: the snippet's branch, main)`,
      params: s.fileParams,
    },
  ];
}

/** Project snippets beyond create, list and read: change, raw content, deletion (lib/api/project_snippets.rb). */
export const SNIPPET_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'PUT',
    path: '/projects/{id}/snippets/{snippet_id}',
    operationId: 'updateProjectSnippet',
    summary: 'Change a project snippet (its author, Maintainers and up)',
    tags: ['snippets'],
    auth: 'token',
    params: projectSnippetPath.extend(updateSnippetBody.shape),
    response: { status: 200, description: 'Snippet', schema: snippetEntity },
    errors: [400, 401, 403, 404, 422],
  },
  ...rawSnippetEndpoints({
    path: '/projects/{id}/snippets/{snippet_id}',
    idParam: projectSnippetPath,
    fileParams: projectSnippetPath.extend(rawFileParams.shape),
    rawId: 'getProjectSnippetRaw',
    fileRawId: 'getProjectSnippetFileRaw',
    rawSummary: "A project snippet's content",
    fileSummary: 'One file of a project snippet',
  }),
  {
    method: 'DELETE',
    path: '/projects/{id}/snippets/{snippet_id}',
    operationId: 'deleteProjectSnippet',
    summary: 'Delete a project snippet (its author, Maintainers and up)',
    tags: ['snippets'],
    auth: 'token',
    params: projectSnippetPath,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
  },
]);

/**
 * Personal snippets and the lists across snippets (lib/api/snippets.rb). No project: the gateway resolves
 * no namespace, the service reads visibility from the snippet (SnippetsFinder). The fixed paths come before
 * `/snippets/{id}` so that they are matched first.
 */
export const PERSONAL_SNIPPET_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'GET',
    path: '/snippets',
    operationId: 'listCurrentUserSnippets',
    summary: "The caller's snippets, personal and in projects they can see",
    tags: ['snippets'],
    auth: 'token',
    params: snippetListQuery,
    response: snippetList,
    errors: [400, 401],
  },
  {
    method: 'GET',
    path: '/snippets/public',
    operationId: 'listPublicSnippets',
    summary: 'Public personal snippets of everyone',
    tags: ['snippets'],
    auth: 'token',
    params: snippetListQuery,
    response: snippetList,
    errors: [400, 401],
  },
  {
    method: 'GET',
    path: '/snippets/all',
    operationId: 'listAllSnippets',
    summary: 'Every snippet the caller can see (admins: all)',
    tags: ['snippets'],
    auth: 'token',
    params: snippetListQuery,
    response: snippetList,
    errors: [400, 401],
  },
  {
    method: 'POST',
    path: '/snippets',
    operationId: 'createSnippet',
    summary: 'Create a personal snippet (one file by file_name and content, or up to 10 files)',
    tags: ['snippets'],
    auth: 'token',
    params: createSnippetBody,
    response: { status: 201, description: 'Snippet', schema: personalSnippetEntity },
    errors: [400, 401, 403],
  },
  {
    method: 'GET',
    path: '/snippets/{id}',
    operationId: 'getSnippet',
    summary: 'One snippet the caller can see',
    tags: ['snippets'],
    auth: 'optional-token',
    params: personalSnippetPath,
    response: { status: 200, description: 'Snippet', schema: personalSnippetEntity },
    errors: [401, 404],
  },
  {
    method: 'PUT',
    path: '/snippets/{id}',
    operationId: 'updateSnippet',
    summary: "Change one of the caller's snippets",
    tags: ['snippets'],
    auth: 'token',
    params: personalSnippetPath.extend(updateSnippetBody.shape),
    response: { status: 200, description: 'Snippet', schema: personalSnippetEntity },
    errors: [400, 401, 403, 404, 422],
  },
  {
    method: 'DELETE',
    path: '/snippets/{id}',
    operationId: 'deleteSnippet',
    summary: "Delete one of the caller's snippets",
    tags: ['snippets'],
    auth: 'token',
    params: personalSnippetPath,
    response: { status: 204, description: 'Deleted' },
    errors: [401, 403, 404],
  },
  ...rawSnippetEndpoints({
    path: '/snippets/{id}',
    idParam: personalSnippetPath,
    fileParams: personalSnippetPath.extend(rawFileParams.shape),
    rawId: 'getSnippetRaw',
    fileRawId: 'getSnippetFileRaw',
    rawSummary: "A snippet's first file",
    fileSummary: 'One file of a snippet',
  }),
]);
