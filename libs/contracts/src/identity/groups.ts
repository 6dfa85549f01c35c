import { z } from 'zod';
import { keysetPaginationParam } from '../keyset';
import { booleanParam, integerParam, visibility } from '../primitives';
import { integerListParam, sortParam, stringParam } from './params';

/** POST /groups (lib/api/groups.rb): name and path required; parent_id makes a subgroup. */
export const createGroupBody = z.object({
  name: stringParam,
  path: stringParam,
  parent_id: integerParam.optional(),
  description: stringParam.optional(),
  visibility: visibility.optional(),
});
export type CreateGroupBody = z.infer<typeof createGroupBody>;

export const updateGroupBody = z.object({
  name: stringParam.optional(),
  path: stringParam.optional(),
  description: stringParam.optional(),
  visibility: visibility.optional(),
});
export type UpdateGroupBody = z.infer<typeof updateGroupBody>;

export const GROUP_ORDER_BY = ['name', 'path', 'id'] as const;

/** GET /groups filters; GitLab orders by name ascending, then id. */
export const listGroupsQuery = z.object({
  skip_groups: integerListParam.optional(),
  all_available: booleanParam.optional(),
  owned: booleanParam.optional(),
  search: stringParam.optional(),
  top_level_only: booleanParam.optional(),
  visibility: visibility.optional(),
  min_access_level: integerParam.optional(),
  order_by: z.enum(GROUP_ORDER_BY).optional(),
  sort: sortParam.optional(),
  /**
   * `keyset`: for anonymous callers, pages by cursor in the default order (name ascending), GitLab's
   * CursorBasedKeyset for Group (`supported_keyset_orderings` is `{ name: [:asc] }`); signed-in callers get
   * offset pages whatever this says (lib/api/groups.rb, present_groups_with_pagination_strategies).
   */
  pagination: keysetPaginationParam,
  /** With `pagination=keyset`: where the page starts, from the previous page's Link rel="next". */
  cursor: z.string().optional(),
});
export type ListGroupsQuery = z.infer<typeof listGroupsQuery>;

/** GET /groups/:id/projects: the project filters plus `include_subgroups`. */
export const listGroupProjectsQuery = z.object({
  include_subgroups: booleanParam.optional(),
});

/** Entities::Group (lib/api/entities/group.rb). */
export const groupEntity = z.object({
  id: z.number().int(),
  web_url: z.string(),
  name: z.string(),
  path: z.string(),
  description: z.string(),
  visibility,
  share_with_group_lock: z.boolean(),
  require_two_factor_authentication: z.boolean(),
  two_factor_grace_period: z.number().int(),
  project_creation_level: z.string(),
  auto_devops_enabled: z.boolean().nullable(),
  subgroup_creation_level: z.string(),
  emails_disabled: z.boolean(),
  emails_enabled: z.boolean(),
  mentions_disabled: z.boolean().nullable(),
  lfs_enabled: z.boolean(),
  archived: z.boolean(),
  default_branch: z.string().nullable(),
  default_branch_protection: z.number().int(),
  avatar_url: z.string().nullable(),
  request_access_enabled: z.boolean(),
  full_name: z.string(),
  full_path: z.string(),
  created_at: z.string(),
  parent_id: z.number().int().nullable(),
  organization_id: z.number().int(),
  shared_runners_setting: z.string(),
  marked_for_deletion_on: z.string().nullable(),
});

/** Entities::GroupDetail: GET/POST/PUT of one group, with its own projects. */
export const groupDetailEntity = groupEntity.extend({
  projects: z.array(z.record(z.string(), z.unknown())),
  shared_projects: z.array(z.unknown()),
  shared_with_groups: z.array(z.unknown()),
  prevent_sharing_groups_outside_hierarchy: z.boolean(),
});
