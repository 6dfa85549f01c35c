import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { paginationQuery } from '../pagination';
import { booleanParam } from '../primitives';
import { userSummary } from '../shared';
import { commitEntity, mergeRequestEntity } from './entities';
import { mergeRequestPath } from './path-params';

/** lib/api/entities/commit.rb: a commit without CommitDetail's stats, status and pipeline. */
export const commitBasicEntity = commitEntity.omit({
  stats: true,
  status: true,
  project_id: true,
  last_pipeline: true,
});
export type CommitBasicEntity = z.infer<typeof commitBasicEntity>;

/** lib/api/entities/diff.rb: one changed file. */
export const diffEntity = z.object({
  old_path: z.string(),
  new_path: z.string(),
  a_mode: z.string(),
  b_mode: z.string(),
  new_file: z.boolean(),
  renamed_file: z.boolean(),
  deleted_file: z.boolean(),
  generated_file: z.boolean(),
  diff: z.string(),
});
export type DiffEntity = z.infer<typeof diffEntity>;

/** lib/api/entities/merge_request_changes.rb: the merge request with its changed files. */
export const mergeRequestChangesEntity = mergeRequestEntity.extend({
  changes: z.array(diffEntity),
  overflow: z.boolean(),
});

/** lib/api/helpers/merge_requests_helpers.rb `with_unidiff`: diffs with their `---`/`+++` header lines. */
const unidiffQuery = z.object({ unidiff: booleanParam.optional() });

/** lib/api/merge_requests.rb beyond the merge request itself. */
export const MERGE_REQUEST_EXTRA_ENDPOINTS = defineEndpoints('discussions', [
  {
    method: 'GET',
    path: '/projects/{id}/merge_requests/{merge_request_iid}/participants',
    operationId: 'listProjectMergeRequestParticipants',
    summary: 'Users taking part in a merge request',
    tags: ['merge_requests'],
    auth: 'optional-token',
    params: mergeRequestPath.extend(paginationQuery.shape),
    response: { status: 200, description: 'Users', schema: z.array(userSummary), paginated: true },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/merge_requests/{merge_request_iid}/commits',
    operationId: 'listProjectMergeRequestCommits',
    summary: "A merge request's commits, newest first",
    tags: ['merge_requests'],
    auth: 'optional-token',
    params: mergeRequestPath.extend(paginationQuery.shape),
    response: { status: 200, description: 'Commits', schema: z.array(commitBasicEntity), paginated: true },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/merge_requests/{merge_request_iid}/changes',
    operationId: 'getProjectMergeRequestChanges',
    summary: 'A merge request with its changed files (deprecated in GitLab 15.7 for /diffs)',
    tags: ['merge_requests'],
    auth: 'optional-token',
    params: mergeRequestPath.extend(unidiffQuery.shape).extend({ access_raw_diffs: booleanParam.optional() }),
    response: { status: 200, description: 'Merge request and changes', schema: mergeRequestChangesEntity },
    errors: [401, 403, 404],
  },
  {
    method: 'GET',
    path: '/projects/{id}/merge_requests/{merge_request_iid}/diffs',
    operationId: 'listProjectMergeRequestDiffs',
    summary: "A merge request's changed files, a page at a time",
    tags: ['merge_requests'],
    auth: 'optional-token',
    params: mergeRequestPath.extend(paginationQuery.shape).extend(unidiffQuery.shape),
    response: { status: 200, description: 'Diffs', schema: z.array(diffEntity), paginated: true },
    errors: [401, 403, 404],
  },
]);
