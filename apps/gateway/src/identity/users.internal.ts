import type { FilterQuery } from 'mongoose';
import { GHOST_USER, HttpError } from '@gl/service-kit';
import type { UserDoc, UserState } from './identity.models';
import { isBlocked, type ModerationAction } from './user-states';

/**
 * User#internal? (app/models/user.rb): an account GitLab runs itself, never a person. The catalogue holds one,
 * the Ghost User at its reserved id (migrations/ghost-user.ts); bots would join it here.
 */
export function isInternalUser(user: Pick<UserDoc, '_id'>): boolean {
  return user._id === GHOST_USER.id;
}

/** User.non_internal as a `users` query (UsersFinder#by_non_internal, `exclude_internal=true`). */
export const nonInternalUsers: FilterQuery<UserDoc> = { _id: { $ne: GHOST_USER.id } };

/**
 * The admin moderation endpoints' refusal of an internal user, where GitLab's services give it:
 * Users::BlockService (`An internal user cannot be blocked`) runs after the API's `break if user.blocked?`;
 * Users::DeactivateService (`Internal users cannot be deactivated`) after the API's `break if
 * user.deactivated?` and its own blocked-user refusal, before the dormancy rule. Both answer
 * `render_api_error!(message, 403)`, the bare message. Unblock, activate, ban and unban have no such check
 * (their services only fire the state machine), so they are left to the state rules.
 */
export function assertModeratable(
  action: ModerationAction,
  user: Pick<UserDoc, '_id'> & { state: UserState },
): void {
  if (!isInternalUser(user) || isBlocked(user.state)) return;
  if (action === 'block') throw new HttpError(403, { message: 'An internal user cannot be blocked' });
  if (action === 'deactivate' && user.state !== 'deactivated') {
    throw new HttpError(403, { message: 'Internal users cannot be deactivated' });
  }
}
