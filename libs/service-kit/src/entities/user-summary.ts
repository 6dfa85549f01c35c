import type { UserSummary } from '@gl/contracts';
import { gravatarUrl } from './avatar';

export { gravatarUrl };

/** What every service knows of a user it shows: from its own projection, an event, or the signed context. */
export interface KnownUser {
  id: number;
  username: string;
  name: string;
  state: string;
  /** The user's primary address, where the service keeps it: the avatar is derived from it. */
  email?: string | null;
}

/**
 * GitLab's `API::Entities::UserBasic` (lib/api/entities/user_basic.rb) — the author, assignee or member
 * summary every entity embeds. `web_url` is the profile on the instance's external URL; `avatar_url` is
 * the one Gravatar URL of the user's address (`gravatarUrl`), the same in every service that knows the
 * address (identity events carry it); `avatarUrl` overrides it where the caller already has the URL.
 */
export function userSummary(
  user: KnownUser,
  externalUrl: string,
  avatarUrl: string | null = gravatarUrl(user.email),
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
