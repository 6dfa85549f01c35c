import { GHOST_USER, HttpError } from '@gl/service-kit';
import type { UserState } from './identity.models';
import { MODERATION_ACTIONS, type ModerationAction } from './user-states';
import { assertModeratable, isInternalUser } from './users.internal';

const ghost = (state: UserState) => ({ _id: GHOST_USER.id, state });

describe('internal users (User#internal?, Users::BlockService, Users::DeactivateService)', () => {
  it('When the user is the Ghost User, then it is internal; anyone else is not', () => {
    expect(isInternalUser({ _id: GHOST_USER.id })).toBe(true);
    expect(isInternalUser({ _id: 1 })).toBe(false);
  });

  it.each<[ModerationAction, UserState, string]>([
    ['block', 'active', 'An internal user cannot be blocked'],
    ['block', 'deactivated', 'An internal user cannot be blocked'],
    ['deactivate', 'active', 'Internal users cannot be deactivated'],
  ])('When %s meets an internal user who is %s, then 403 %s', (action, state, message) => {
    let thrown: unknown;
    try {
      assertModeratable(action, ghost(state));
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect(thrown).toMatchObject({ status: 403, body: { message } });
  });

  // The API's early `break`s and DeactivateService's blocked-user refusal come first: the state rules answer.
  it.each<[ModerationAction, UserState]>([
    ['block', 'blocked'],
    ['block', 'banned'],
    ['deactivate', 'deactivated'],
    ['deactivate', 'blocked'],
    ['deactivate', 'banned'],
    ['unblock', 'active'],
    ['activate', 'active'],
    ['ban', 'active'],
    ['unban', 'banned'],
  ])('When %s meets an internal user who is %s, then the state rules decide', (action, state) => {
    expect(() => assertModeratable(action, ghost(state))).not.toThrow();
  });

  it('When the user is a person, then no action is refused here', () => {
    for (const action of MODERATION_ACTIONS) {
      for (const state of ['active', 'blocked', 'banned', 'deactivated'] as const) {
        expect(() => assertModeratable(action, { _id: 7, state })).not.toThrow();
      }
    }
  });
});
