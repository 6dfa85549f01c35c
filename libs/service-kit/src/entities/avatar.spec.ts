import { gravatarUrl } from './avatar';
import { GHOST_USER, userSummary } from './user-summary';

describe('gravatarUrl (app/services/gravatar_service.rb)', () => {
  it('When given an address, then the MD5 of it trimmed and lower-cased, at size 80 with identicons', () => {
    // MD5("root@example.com"), computed independently.
    expect(gravatarUrl('root@example.com')).toBe(
      'https://www.gravatar.com/avatar/04edfc0ef6c6cf6d6b88fbc69f9f9071?s=80&d=identicon',
    );
    expect(gravatarUrl('  Root@Example.COM ')).toBe(gravatarUrl('root@example.com'));
  });

  it('When there is no address, then null', () => {
    expect(gravatarUrl(null)).toBeNull();
    expect(gravatarUrl('')).toBeNull();
  });

  it('When a summary knows the address, then its avatar_url is that URL; without one, null', () => {
    const user = { id: 2, username: 'ann', name: 'Ann', state: 'active' };
    expect(userSummary({ ...user, email: 'ann@example.com' }, 'http://gl').avatar_url).toBe(
      gravatarUrl('ann@example.com'),
    );
    expect(userSummary(user, 'http://gl').avatar_url).toBeNull();
  });
});

describe('userSummary of a deleted user', () => {
  it('When the user is destroyed, then the Ghost User with its own avatar', () => {
    const summary = userSummary(
      { id: 7, username: 'gone', name: 'Gone', state: 'active', email: 'gone@example.com', destroyed: true },
      'http://gl',
    );
    expect(summary).toEqual({
      id: GHOST_USER.id,
      username: 'ghost',
      name: 'Ghost User',
      state: 'active',
      locked: false,
      avatar_url: gravatarUrl('ghost@example.com'),
      web_url: 'http://gl/ghost',
    });
  });
});
