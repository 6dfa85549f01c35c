import { ForbiddenError, HttpError } from '@gl/service-kit';
import type { UserDoc, UserState } from './identity.models';

/**
 * GitLab's user state machine (app/models/user.rb `state_machine :state`) and the admin API's rules around
 * it (lib/api/users.rb `post ':id/block'` … `post ':id/activate'`, app/services/users/*_service.rb), as one
 * pure decision: what an action does to a user in a given state, and what the endpoint answers.
 */
export const MODERATION_ACTIONS = ['block', 'unblock', 'ban', 'unban', 'deactivate', 'activate'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** `blocked?` is true in every blocked-like state (user.rb `state :blocked, …, :banned`). */
export function isBlocked(state: UserState): boolean {
  return state === 'blocked' || state === 'banned';
}

/** user.rb's events: the states each one leaves from, and where it goes. */
const EVENTS: Record<'block' | 'activate' | 'ban' | 'unban' | 'deactivate', [UserState[], UserState]> = {
  block: [['active', 'deactivated', 'banned'], 'blocked'],
  activate: [['deactivated', 'blocked', 'banned'], 'active'],
  ban: [['active'], 'banned'],
  unban: [['banned'], 'active'],
  deactivate: [['active'], 'deactivated'],
};

/** Gitlab::CurrentSettings.deactivate_dormant_users_period: the default, 90 days. */
export const DORMANT_DAYS = 90;

/**
 * The answer of a moderation endpoint (always 201): `true`, `false` where GitLab returns the state
 * transition's result, `null` where it `break`s out early (already in that state); `to` is the state to
 * write, when it changes.
 */
export interface Moderation {
  body: boolean | null;
  to?: UserState;
}

function fire(event: keyof typeof EVENTS, state: UserState): Moderation {
  const [from, to] = EVENTS[event];
  return from.includes(state) ? { body: true, to } : { body: false };
}

/** User#can_be_deactivated?: active, and no activity (API use, sign-in) in the dormancy period. */
function dormant(user: Pick<UserDoc, 'lastActivityOn'>, today: Date): boolean {
  if (!user.lastActivityOn) return true;
  const since = Date.parse(`${user.lastActivityOn}T00:00:00Z`);
  return since <= today.getTime() - DORMANT_DAYS * 86_400_000;
}

/**
 * Decides `action` on `user` by the admin `callerId`. Throws GitLab's refusals: `forbidden!(...)`
 * (`403 Forbidden - …`) from the API, `render_api_error!(message, 403)` (the bare message) from services.
 */
export function moderate(
  action: ModerationAction,
  user: Pick<UserDoc, '_id' | 'state' | 'lastActivityOn'>,
  callerId: number,
  today: Date = new Date(),
): Moderation {
  const state = user.state;
  switch (action) {
    case 'block':
      if (user._id === callerId)
        throw new ForbiddenError('The API initiating user cannot be blocked by the API');
      if (isBlocked(state)) return { body: null };
      return fire('block', state);
    case 'unblock':
      if (state === 'deactivated')
        throw new ForbiddenError('Deactivated users cannot be unblocked by the API');
      return fire('activate', state);
    case 'ban':
      // Users::BannedUserBaseService#state_error.
      if (state !== 'active') throw new HttpError(403, { message: `You cannot ban ${state} users.` });
      return fire('ban', state);
    case 'unban':
      if (state !== 'banned') throw new HttpError(403, { message: `You cannot unban ${state} users.` });
      return fire('unban', state);
    case 'deactivate':
      if (state === 'deactivated') return { body: null };
      if (isBlocked(state)) {
        throw new HttpError(403, { message: 'Error occurred. A blocked user cannot be deactivated' });
      }
      if (!dormant(user, today)) {
        throw new HttpError(403, {
          message:
            `The user you are trying to deactivate has been active in the past ${DORMANT_DAYS} days ` +
            'and cannot be deactivated',
        });
      }
      return fire('deactivate', state);
    case 'activate':
      if (isBlocked(state)) throw new ForbiddenError('A blocked user must be unblocked to be activated');
      return fire('activate', state);
  }
}
