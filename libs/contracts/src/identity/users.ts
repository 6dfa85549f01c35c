import { z } from 'zod';
import { booleanParam, integerParam, recordIdParam, stringListParam } from '../primitives';
import { userSummary } from '../shared';
import { keysetPaginationParam } from '../keyset';
import { dayParam, sortParam, stringParam } from './params';

/** Scopes a personal access token may carry (Gitlab::Auth.all_available_scopes, the ones served here). */
export const PERSONAL_ACCESS_TOKEN_SCOPES = [
  'api',
  'read_api',
  'read_user',
  'sudo',
  'read_repository',
  'write_repository',
  'read_registry',
  'write_registry',
] as const;

/** POST /users (lib/api/users.rb); `at_least_one_of :password, :reset_password, :force_random_password`. */
export const createUserBody = z.object({
  // Declaration order of lib/api/users.rb: Grape reports failures in this order.
  email: stringParam,
  password: stringParam.optional(),
  reset_password: booleanParam.optional(),
  skip_confirmation: booleanParam.optional(),
  name: stringParam,
  username: stringParam,
  force_random_password: booleanParam.optional(),
  admin: booleanParam.optional(),
  is_admin: booleanParam.optional(),
  can_create_group: booleanParam.optional(),
  projects_limit: integerParam.optional(),
  bio: stringParam.optional(),
});
export type CreateUserBody = z.infer<typeof createUserBody>;

export const USER_ORDER_BY = ['id', 'name', 'username', 'created_at', 'updated_at'] as const;

export const listUsersQuery = z.object({
  username: stringParam.optional(),
  search: stringParam.optional(),
  active: booleanParam.optional(),
  blocked: booleanParam.optional(),
  /** UsersFinder's non_internal: leaves out internal users (the Ghost User). */
  exclude_internal: booleanParam.optional(),
  /** lib/api/users.rb: id unless given (a `search` without either keeps UsersFinder's order, newest first). */
  order_by: z.enum(USER_ORDER_BY).optional(),
  /** desc unless given. */
  sort: sortParam.optional(),
  /**
   * `keyset`: pages by cursor in any of the orders above (GitLab's CursorBasedKeyset for User,
   * `supported_keyset_orderings`), Link rel="next" and X-Next-Cursor only while more users follow.
   */
  pagination: keysetPaginationParam,
  /** With `pagination=keyset`: where the page starts, from the previous page's Link rel="next". */
  cursor: z.string().optional(),
});

export type ListUsersQuery = z.infer<typeof listUsersQuery>;

export const userIdParam = z.object({ id: recordIdParam });

const scopeList = stringListParam.refine(
  (scopes) => scopes.every((s) => (PERSONAL_ACCESS_TOKEN_SCOPES as readonly string[]).includes(s)),
  { message: 'scopes does not have a valid value' },
);

/** POST /users/:user_id/personal_access_tokens. */
export const createPersonalAccessTokenBody = z.object({
  name: stringParam,
  scopes: scopeList,
  expires_at: dayParam.optional(),
});
export type CreatePersonalAccessTokenBody = z.infer<typeof createPersonalAccessTokenBody>;

/** POST /users/:id/emails. */
export const addEmailBody = z.object({ email: stringParam, skip_confirmation: booleanParam.optional() });

// Responses (lib/api/entities/user_*.rb).

export const userBasicEntity = userSummary;

/** Entities::User: what any signed-in user sees of another user. */
export const userEntity = userBasicEntity.extend({
  created_at: z.string(),
  bio: z.string(),
  location: z.string(),
  public_email: z.string(),
  skype: z.string(),
  linkedin: z.string(),
  twitter: z.string(),
  discord: z.string(),
  website_url: z.string(),
  organization: z.string(),
  job_title: z.string(),
  pronouns: z.string().nullable(),
  bot: z.boolean(),
  work_information: z.string().nullable(),
  followers: z.number().int(),
  following: z.number().int(),
  local_time: z.string().nullable(),
});

/** Entities::UserPublic: GET /user for a regular user. */
export const userPublicEntity = userEntity.extend({
  last_sign_in_at: z.string().nullable(),
  confirmed_at: z.string().nullable(),
  last_activity_on: z.string().nullable(),
  email: z.string(),
  theme_id: z.number().int(),
  color_scheme_id: z.number().int(),
  projects_limit: z.number().int(),
  current_sign_in_at: z.string().nullable(),
  identities: z.array(z.unknown()),
  can_create_group: z.boolean(),
  can_create_project: z.boolean(),
  two_factor_enabled: z.boolean(),
  external: z.boolean(),
  private_profile: z.boolean(),
  commit_email: z.string(),
});

/** Entities::UserWithAdmin: admins' view (POST /users, GET /users, GET /user of an admin). */
export const userWithAdminEntity = userPublicEntity.extend({
  is_admin: z.boolean(),
  note: z.string().nullable(),
  namespace_id: z.number().int(),
  created_by: userBasicEntity.nullable(),
});

/** Entities::UserDetailsWithAdmin: GET /users/:id by an admin. */
export const userDetailsWithAdminEntity = userWithAdminEntity.extend({
  highest_role: z.number().int(),
  current_sign_in_ip: z.string().nullable(),
  last_sign_in_ip: z.string().nullable(),
  sign_in_count: z.number().int(),
});

export const personalAccessTokenEntity = z.object({
  id: z.number().int(),
  name: z.string(),
  revoked: z.boolean(),
  created_at: z.string(),
  description: z.string().nullable(),
  scopes: z.array(z.string()),
  user_id: z.number().int(),
  last_used_at: z.string().nullable(),
  active: z.boolean(),
  expires_at: z.string().nullable(),
});
export const personalAccessTokenWithTokenEntity = personalAccessTokenEntity.extend({ token: z.string() });

export const emailEntity = z.object({
  id: z.number().int(),
  email: z.string(),
  confirmed_at: z.string().nullable(),
});

/** PUT /users/:id (lib/api/users.rb: the update params and `optional_attributes`). */
export const updateUserBody = z.object({
  id: recordIdParam,
  email: stringParam.optional(),
  password: stringParam.optional(),
  skip_reconfirmation: booleanParam.optional(),
  name: stringParam.optional(),
  username: stringParam.optional(),
  skype: stringParam.optional(),
  linkedin: stringParam.optional(),
  twitter: stringParam.optional(),
  discord: stringParam.optional(),
  website_url: stringParam.optional(),
  organization: stringParam.optional(),
  projects_limit: integerParam.optional(),
  bio: stringParam.optional(),
  location: stringParam.optional(),
  pronouns: stringParam.optional(),
  public_email: stringParam.optional(),
  commit_email: stringParam.optional(),
  admin: booleanParam.optional(),
  can_create_group: booleanParam.optional(),
  external: booleanParam.optional(),
  theme_id: integerParam.optional(),
  color_scheme_id: integerParam.optional(),
  private_profile: booleanParam.optional(),
  note: stringParam.optional(),
  job_title: stringParam.optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

/** DELETE /users/:id. */
export const deleteUserQuery = userIdParam.extend({ hard_delete: booleanParam.optional() });

/** GET /users/:user_id/memberships (admin). */
export const listMembershipsQuery = z.object({
  user_id: recordIdParam,
  type: z.enum(['Project', 'Namespace']).optional(),
});

/** Entities::Membership. */
export const membershipEntity = z.object({
  source_id: z.number().int(),
  source_name: z.string(),
  source_type: z.enum(['Project', 'Namespace']),
  access_level: z.number().int(),
});
