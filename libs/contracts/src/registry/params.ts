import { z } from 'zod';
import { booleanParam, integerParam, recordIdParam } from '../primitives';
import { keysetPaginationParam } from '../keyset';
import { paginationQuery } from '../pagination';

export const listRegistryRepositoriesQuery = paginationQuery.extend({
  tags: booleanParam.optional(),
  tags_count: booleanParam.optional(),
});

export const getRegistryRepositoryQuery = z.object({
  id: recordIdParam,
  tags: booleanParam.optional(),
  tags_count: booleanParam.optional(),
  size: booleanParam.optional(),
});

export const repositoryIdParams = z.object({ repository_id: recordIdParam });

export const tagParams = repositoryIdParams.extend({ tag_name: z.string().min(1) });

/**
 * GET …/tags: offset pages, or with `pagination=keyset` pages by name (lib/api/project_container_repositories.rb):
 * `last` is the name the page starts after, `sort=desc` pages by name descending (anything else ascending),
 * and the next page's Link rel="next" carries `last`, `per_page` and `sort`.
 */
export const listRegistryTagsQuery = paginationQuery.extend({
  repository_id: recordIdParam,
  pagination: keysetPaginationParam,
  last: z.string().optional(),
  sort: z.string().optional().describe('With pagination=keyset: `desc` for names descending, else ascending'),
});

/** Bulk tag delete (`DELETE …/tags`); regexes are validated by the service with RE2. */
export const bulkDeleteTagsParams = z.object({
  repository_id: recordIdParam,
  name_regex_delete: z.string().optional(),
  name_regex: z.string().optional(),
  name_regex_keep: z.string().optional(),
  keep_n: integerParam.optional(),
  older_than: z.string().optional(),
  /**
   * Not GitLab's: answer 200 with the tags the call would delete, and schedule nothing (no rate-limit slot,
   * no job). Validation and permissions are the real call's.
   */
  dry_run: booleanParam.optional(),
});
export type BulkDeleteTagsParams = z.infer<typeof bulkDeleteTagsParams>;
