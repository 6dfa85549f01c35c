import type { TokenDoc, UserDoc } from './identity.models';
import { avatarUrl } from './urls';
import { hasExpired, userSummary } from '@gl/service-kit';

/**
 * GitLab's user entities (lib/api/entities/user_basic.rb → user.rb → user_public.rb → user_with_admin.rb),
 * each a superset of the previous. Profile fields this catalogue does not keep are rendered with the
 * values GitLab gives a fresh account.
 */
type UserView = Pick<UserDoc, '_id' | 'username' | 'name' | 'state' | 'emailLower'>;

export function userBasic(externalUrl: string, user: UserView) {
  return userSummary({ ...user, id: user._id }, externalUrl, avatarUrl(user));
}

export function userEntity(externalUrl: string, user: UserDoc) {
  return {
    ...userBasic(externalUrl, user),
    created_at: user.createdAt.toISOString(),
    bio: user.bio,
    location: '',
    public_email: '',
    skype: '',
    linkedin: '',
    twitter: '',
    discord: '',
    website_url: '',
    organization: '',
    job_title: '',
    pronouns: null,
    bot: false,
    work_information: null,
    followers: 0,
    following: 0,
    local_time: null,
  };
}

export function userPublicEntity(externalUrl: string, user: UserDoc) {
  return {
    ...userEntity(externalUrl, user),
    last_sign_in_at: null,
    confirmed_at: user.createdAt.toISOString(),
    last_activity_on: null,
    email: user.email,
    theme_id: 3,
    color_scheme_id: 1,
    projects_limit: user.projectsLimit,
    current_sign_in_at: null,
    identities: [],
    can_create_group: user.canCreateGroup,
    can_create_project: user.projectsLimit > 0,
    two_factor_enabled: false,
    external: false,
    private_profile: false,
    commit_email: user.email,
  };
}

export function userWithAdminEntity(externalUrl: string, user: UserDoc) {
  return {
    ...userPublicEntity(externalUrl, user),
    is_admin: user.isAdmin,
    note: null,
    namespace_id: user.namespaceId,
    created_by: null,
  };
}

export function userDetailsWithAdminEntity(externalUrl: string, user: UserDoc, highestRole: number) {
  return {
    ...userWithAdminEntity(externalUrl, user),
    highest_role: highestRole,
    current_sign_in_ip: null,
    last_sign_in_ip: null,
    sign_in_count: 0,
  };
}

/** Entities::PersonalAccessToken; `token` is only ever shown in the creation response. */
export function personalAccessTokenEntity(record: TokenDoc, token?: string) {
  const expired = hasExpired(record.expiresAt);
  return {
    id: record._id,
    name: record.name,
    revoked: record.revoked,
    created_at: record.createdAt.toISOString(),
    description: null,
    scopes: record.scopes,
    user_id: record.userId,
    last_used_at: record.lastUsedAt ? record.lastUsedAt.toISOString() : null,
    active: !record.revoked && !expired,
    expires_at: record.expiresAt,
    ...(token === undefined ? {} : { token }),
  };
}

export function emailEntity(email: { _id: number; email: string; confirmedAt: Date | null }) {
  return {
    id: email._id,
    email: email.email,
    confirmed_at: email.confirmedAt ? email.confirmedAt.toISOString() : null,
  };
}
