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
  /** Deleted (gl.identity.user.destroyed): shown as the Ghost User, who holds their contributions. */
  destroyed?: boolean;
}

/**
 * GitLab's Ghost User (User.ghost, app/models/user.rb: username `ghost`, name "Ghost User", address
 * `ghost@example.com`), who holds the contributions of deleted users (Users::MigrateToGhostUserService).
 * GitLab creates that account on first use with a database id; here the gateway creates it once at this
 * reserved id (its migration `ghost-user.ts`), above any the catalogue's counter hands out, so every service
 * can name it without asking and `GET /users/:id` answers for it.
 */
export const GHOST_USER = {
  id: 2_147_483_647,
  username: 'ghost',
  name: 'Ghost User',
  state: 'active',
  email: 'ghost@example.com',
} as const satisfies KnownUser;

/**
 * A stored user copy as a KnownUser, its fields named: `{ ...copy, id: copy._id }` would cost more than
 * the summary itself, as every field added after a leading object spread builds a new hidden class on
 * our Node (about 1 µs each).
 */
export function knownUser(copy: {
  _id: number;
  username: string;
  name: string;
  /** Copies that keep no state (discussions') show the user as active. */
  state?: string;
  email?: string | null;
  destroyed?: boolean;
}): KnownUser {
  const { username, name, state = 'active', email, destroyed } = copy;
  return { id: copy._id, username, name, state, email, destroyed };
}

/**
 * GitLab's `API::Entities::UserBasic` (lib/api/entities/user_basic.rb) — the author, assignee or member
 * summary every entity embeds. `web_url` is the profile on the instance's external URL; `avatar_url` is
 * the one Gravatar URL of the user's address (`gravatarUrl`), the same in every service that knows the
 * address (identity events carry it); `avatarUrl` overrides it where the caller already has the URL.
 * A deleted user is shown as the Ghost User (GHOST_USER), as GitLab shows their migrated contributions.
 */
export function userSummary(
  user: KnownUser,
  externalUrl: string,
  avatarUrl: string | null = gravatarUrl(user.email),
): UserSummary {
  if (user.destroyed) return userSummary(GHOST_USER, externalUrl);
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
