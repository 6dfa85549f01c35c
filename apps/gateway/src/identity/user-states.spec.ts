import { ForbiddenError, HttpError } from '@gl/service-kit';
import type { UserState } from './identity.models';
import { moderate, type ModerationAction } from './user-states';

const today = new Date('2026-06-01T12:00:00Z');
const user = (state: UserState, lastActivityOn: string | null = null) => ({ _id: 7, state, lastActivityOn });

describe('user state rules (app/models/user.rb, lib/api/users.rb)', () => {
  it.each<[ModerationAction, UserState, boolean | null, UserState | undefined]>([
    ['block', 'active', true, 'blocked'],
    ['block', 'deactivated', true, 'blocked'],
    ['block', 'blocked', null, undefined],
    ['block', 'banned', null, undefined],
    ['unblock', 'blocked', true, 'active'],
    ['unblock', 'banned', true, 'active'],
    ['unblock', 'active', false, undefined],
    ['ban', 'active', true, 'banned'],
    ['unban', 'banned', true, 'active'],
    ['deactivate', 'active', true, 'deactivated'],
    ['deactivate', 'deactivated', null, undefined],
    ['activate', 'deactivated', true, 'active'],
    ['activate', 'active', false, undefined],
  ])('When %s meets a %s user, then %s and the state becomes %s', (action, state, body, to) => {
    expect(moderate(action, user(state), 1, today)).toEqual(to ? { body, to } : { body });
  });

  it.each<[ModerationAction, UserState, string]>([
    ['unblock', 'deactivated', '403 Forbidden - Deactivated users cannot be unblocked by the API'],
    ['activate', 'blocked', '403 Forbidden - A blocked user must be unblocked to be activated'],
    ['activate', 'banned', '403 Forbidden - A blocked user must be unblocked to be activated'],
  ])('When %s meets a %s user, then forbidden!: %s', (action, state, message) => {
    expect(() => moderate(action, user(state), 1, today)).toThrow(new ForbiddenError(message.slice(16)));
  });

  it.each<[ModerationAction, UserState, string]>([
    ['ban', 'blocked', 'You cannot ban blocked users.'],
    ['ban', 'deactivated', 'You cannot ban deactivated users.'],
    ['unban', 'active', 'You cannot unban active users.'],
    ['deactivate', 'blocked', 'Error occurred. A blocked user cannot be deactivated'],
    ['deactivate', 'banned', 'Error occurred. A blocked user cannot be deactivated'],
  ])('When %s meets a %s user, then 403 with the service message %j', (action, state, message) => {
    let thrown: unknown;
    try {
      moderate(action, user(state), 1, today);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(HttpError);
    expect(thrown).toMatchObject({ status: 403, body: { message } });
  });

  it('When the admin blocks themselves, then 403 before anything else', () => {
    expect(() => moderate('block', user('active'), 7, today)).toThrow(
      '403 Forbidden - The API initiating user cannot be blocked by the API',
    );
  });

  it('When the user was active within 90 days, then deactivation is refused; after that it applies', () => {
    expect(() => moderate('deactivate', user('active', '2026-05-30'), 1, today)).toThrow(
      'has been active in the past 90 days and cannot be deactivated',
    );
    expect(moderate('deactivate', user('active', '2026-02-01'), 1, today)).toEqual({
      body: true,
      to: 'deactivated',
    });
  });
});
