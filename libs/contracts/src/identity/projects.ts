import { z } from 'zod';
import { projectFeatureParams } from './project-features';
import { booleanParam, integerParam, visibility } from '../primitives';
import { keysetPaginationParam } from '../keyset';
import { userSummary } from '../shared';
import { sortParam, stringParam } from './params';

/** POST /projects: `at_least_one_of :name, :path`; namespace_id defaults to the caller's own namespace. */
export const createProjectBody = z
  .object({
    name: stringParam.optional(),
    path: stringParam.optional(),
    namespace_id: integerParam.optional(),
    description: stringParam.optional(),
    visibility: visibility.optional(),
    default_branch: stringParam.optional(),
    initialize_with_readme: booleanParam.optional(),
  })
  .extend(projectFeatureParams.shape);
export type CreateProjectBody = z.infer<typeof createProjectBody>;

/** PUT /projects/:id; at least one attribute must be given. */
export const updateProjectBody = z
  .object({
    name: stringParam.optional(),
    path: stringParam.optional(),
    description: stringParam.optional(),
    visibility: visibility.optional(),
    default_branch: stringParam.optional(),
  })
  .extend(projectFeatureParams.shape);
export type UpdateProjectBody = z.infer<typeof updateProjectBody>;
/**
 * The attributes of `at_least_one_of` on PUT /projects/:id, in the order of GitLab's
 * ProjectsHelpers.update_params_at_least_one_of (lib/api/helpers/projects_helpers.rb), which its error
 * message lists: the access levels and attributes alphabetically, the deprecated switches last.
 */
export const UPDATE_PROJECT_ATTRIBUTES = [
  'analytics_access_level',
  'builds_access_level',
  'container_registry_access_level',
  'default_branch',
  'description',
  'environments_access_level',
  'feature_flags_access_level',
  'forking_access_level',
  'infrastructure_access_level',
  'issues_access_level',
  'merge_requests_access_level',
  'name',
  'pages_access_level',
  'monitor_access_level',
  'path',
  'releases_access_level',
  'repository_access_level',
  'security_and_compliance_access_level',
  'snippets_access_level',
  'visibility',
  'wiki_access_level',
  'issues_enabled',
  'jobs_enabled',
  'merge_requests_enabled',
  'wiki_enabled',
  'snippets_enabled',
  'container_registry_enabled',
] as const satisfies readonly (keyof UpdateProjectBody)[];

export const PROJECT_ORDER_BY = [
  'id',
  'name',
  'path',
  'created_at',
  'updated_at',
  'last_activity_at',
  'star_count',
] as const;

/** GET /projects filters; GitLab orders by created_at descending by default. */
export const listProjectsQuery = z.object({
  search: stringParam.optional(),
  owned: booleanParam.optional(),
  starred: booleanParam.optional(),
  membership: booleanParam.optional(),
  visibility: visibility.optional(),
  min_access_level: integerParam.optional(),
  simple: booleanParam.optional(),
  order_by: z.enum(PROJECT_ORDER_BY).optional(),
  sort: sortParam.optional(),
});
export type ListProjectsQuery = z.infer<typeof listProjectsQuery>;

/**
 * GET /projects and GET /users/:user_id/projects beyond the filters above (lib/api/projects.rb): `id_after`
 * and `id_before` narrow to ids above or below (ProjectsFinder#by_ids, with either pagination), and
 * `pagination=keyset` with `order_by=id` pages by id (Gitlab::Pagination::Keyset), the next page's link
 * carrying `id_after` (sort=asc) or `id_before` (sort=desc, the default).
 */
export const keysetProjectsQuery = z.object({
  pagination: keysetPaginationParam,
  id_after: integerParam.optional(),
  id_before: integerParam.optional(),
});
export type ProjectListParams = ListProjectsQuery & Partial<z.infer<typeof keysetProjectsQuery>>;

export const listStarrersQuery = z.object({ search: stringParam.optional() });

/** Entities::NamespaceBasic, embedded in projects. */
export const namespaceBasicEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  kind: z.enum(['group', 'user']),
  full_path: z.string(),
  parent_id: z.number().int().nullable(),
  avatar_url: z.string().nullable(),
  web_url: z.string(),
});

/** Entities::BasicProjectDetails (anonymous lists, `simple=true`). */
export const basicProjectEntity = z.object({
  id: z.number().int(),
  description: z.string(),
  name: z.string(),
  name_with_namespace: z.string(),
  path: z.string(),
  path_with_namespace: z.string(),
  created_at: z.string(),
  default_branch: z.string(),
  tag_list: z.array(z.string()),
  topics: z.array(z.string()),
  ssh_url_to_repo: z.string(),
  http_url_to_repo: z.string(),
  web_url: z.string(),
  readme_url: z.string().nullable(),
  forks_count: z.number().int(),
  avatar_url: z.string().nullable(),
  star_count: z.number().int(),
  last_activity_at: z.string(),
  namespace: namespaceBasicEntity,
});

const accessEntry = z
  .object({ access_level: z.number().int(), notification_level: z.number().int() })
  .nullable();

/** Entities::Project, plus `permissions` (Entities::ProjectWithAccess) for signed-in callers. */
export const projectEntity = basicProjectEntity.extend({
  visibility,
  owner: userSummary.optional(),
  creator_id: z.number().int(),
  empty_repo: z.boolean(),
  archived: z.boolean(),
  /** Left out while issues are disabled. */
  open_issues_count: z.number().int().optional(),
  updated_at: z.string(),
  issues_enabled: z.boolean(),
  merge_requests_enabled: z.boolean(),
  wiki_enabled: z.boolean(),
  jobs_enabled: z.boolean(),
  snippets_enabled: z.boolean(),
  container_registry_enabled: z.boolean(),
  _links: z.record(z.string(), z.string()),
  permissions: z.object({ project_access: accessEntry, group_access: accessEntry }).optional(),
});

export const starrerEntity = z.object({ starred_since: z.string(), user: userSummary });
