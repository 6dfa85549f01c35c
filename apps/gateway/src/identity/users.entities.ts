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
  // Fields named rather than `{ ...user, id }`: a leading spread costs a hidden class per added field.
  const known = { id: user._id, username: user.username, name: user.name, state: user.state };
  return userSummary(known, externalUrl, avatarUrl(user));
}

export function userEntity(externalUrl: string, user: UserDoc) {
  const profile = user.profile ?? {};
  return Object.assign(userBasic(externalUrl, user), {
    created_at: user.createdAt.toISOString(),
    bio: user.bio,
    location: profile.location ?? '',
    public_email: profile.publicEmail ?? '',
    skype: profile.skype ?? '',
    linkedin: profile.linkedin ?? '',
    twitter: profile.twitter ?? '',
    discord: profile.discord ?? '',
    website_url: profile.websiteUrl ?? '',
    organization: profile.organization ?? '',
    job_title: profile.jobTitle ?? '',
    pronouns: profile.pronouns ?? null,
    bot: false,
    work_information: workInformation(profile),
    followers: 0,
    following: 0,
    local_time: null,
  });
}

/** UserDetail#work_information: "Job title at Organization", either alone, or null. */
function workInformation(profile: NonNullable<UserDoc['profile']>): string | null {
  const { jobTitle, organization } = profile;
  if (jobTitle && organization) return `${jobTitle} at ${organization}`;
  return jobTitle || organization || null;
}

export function userPublicEntity(externalUrl: string, user: UserDoc) {
  const profile = user.profile ?? {};
  return Object.assign(userEntity(externalUrl, user), {
    last_sign_in_at: null,
    confirmed_at: user.createdAt.toISOString(),
    last_activity_on: user.lastActivityOn ?? null,
    email: user.email,
    theme_id: profile.themeId ?? 3,
    color_scheme_id: profile.colorSchemeId ?? 1,
    projects_limit: user.projectsLimit,
    current_sign_in_at: null,
    identities: [],
    can_create_group: user.canCreateGroup,
    can_create_project: user.projectsLimit > 0,
    two_factor_enabled: false,
    external: profile.external ?? false,
    private_profile: profile.privateProfile ?? false,
    commit_email:
      profile.commitEmail && profile.commitEmail !== '_private' ? profile.commitEmail : user.email,
  });
}

export function userWithAdminEntity(externalUrl: string, user: UserDoc) {
  return Object.assign(userPublicEntity(externalUrl, user), {
    is_admin: user.isAdmin,
    note: user.profile?.note ?? null,
    namespace_id: user.namespaceId,
    created_by: null,
  });
}

export function userDetailsWithAdminEntity(externalUrl: string, user: UserDoc, highestRole: number) {
  return Object.assign(userWithAdminEntity(externalUrl, user), {
    highest_role: highestRole,
    current_sign_in_ip: null,
    last_sign_in_ip: null,
    sign_in_count: 0,
  });
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
