import type { UserSummary } from '@gl/contracts';

/** What every service knows of a user it shows: from its own projection, an event, or the signed context. */
export interface KnownUser {
  id: number;
  username: string;
  name: string;
  state: string;
}

/**
 * GitLab's `API::Entities::UserBasic` (lib/api/entities/user_basic.rb) — the author, assignee or member
 * summary every entity embeds. `web_url` is the profile on the instance's external URL; services without
 * the user's e-mail have no avatar to show.
 */
export function userSummary(
  user: KnownUser,
  externalUrl: string,
  avatarUrl: string | null = null,
): UserSummary {
  return {
    id: user.id,
    username: user.username,
    name: user.name,
    state: user.state,
    locked: false,
    avatar_url: avatarUrl,
    web_url: `${externalUrl}/${user.username}`,
  };
}
