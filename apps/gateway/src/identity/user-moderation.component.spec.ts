import { EVENT_TYPES, userEventData } from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asRecord } from '../testing/identity.api';

describe('identity: block, ban, deactivate (lib/api/users.rb)', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-moderation' });

  it('When root blocks a user, then 201 true, their token is refused at once, and user.updated carries the state', async () => {
    const user = await make.user();
    expect((await api('GET', '/user', { token: user.token })).status).toBe(200);

    const blocked = await api('POST', `/users/${user.id}/block`);
    expect(blocked).toMatchObject({ status: 201, body: true });
    const refused = await api('GET', '/user', { token: user.token });
    expect(refused).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Your account has been blocked.' },
    });
    expect(asRecord((await api('GET', `/users/${user.id}`)).body).state).toBe('blocked');

    const events = await published(EVENT_TYPES.identity.userUpdated);
    const last = events.filter((e) => e.data.userId === user.id).at(-1);
    expect(userEventData.parse(last!.data).state).toBe('blocked');

    expect(await api('POST', `/users/${user.id}/block`)).toMatchObject({ status: 201, body: null });
    expect(await api('POST', `/users/${user.id}/unblock`)).toMatchObject({ status: 201, body: true });
    expect((await api('GET', '/user', { token: user.token })).status).toBe(200);
    expect(await api('POST', `/users/${user.id}/unblock`)).toMatchObject({ status: 201, body: false });
  });

  it('When root bans and unbans, then GitLab answers each state with its message', async () => {
    const user = await make.user();
    expect(await api('POST', `/users/${user.id}/ban`)).toMatchObject({ status: 201, body: true });
    expect(await api('POST', `/users/${user.id}/ban`)).toMatchObject({
      status: 403,
      body: { message: 'You cannot ban banned users.' },
    });
    expect((await api('GET', '/user', { token: user.token })).status).toBe(403);
    expect(await api('POST', `/users/${user.id}/unban`)).toMatchObject({ status: 201, body: true });
    expect(await api('POST', `/users/${user.id}/unban`)).toMatchObject({
      status: 403,
      body: { message: 'You cannot unban active users.' },
    });
  });

  it('When a user has used the API, then deactivation is refused; a dormant one is deactivated and refused with the reactivation message', async () => {
    const active = await make.user();
    expect((await api('GET', '/user', { token: active.token })).status).toBe(200);
    // The activity day is written after the answer; give it a moment.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await api('POST', `/users/${active.id}/deactivate`)).toMatchObject({
      status: 403,
      body: {
        message:
          'The user you are trying to deactivate has been active in the past 90 days and cannot be deactivated',
      },
    });

    const dormant = await make.user();
    expect(await api('POST', `/users/${dormant.id}/deactivate`)).toMatchObject({ status: 201, body: true });
    expect(await api('POST', `/users/${dormant.id}/deactivate`)).toMatchObject({ status: 201, body: null });
    const refused = await api('GET', '/user', { token: dormant.token });
    expect(refused.status).toBe(403);
    expect(asRecord(refused.body).message).toMatch(
      /^403 Forbidden - Your account has been deactivated by your administrator\. Please log back in from a web browser to reactivate your account at http/,
    );
    expect(await api('POST', `/users/${dormant.id}/unblock`)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - Deactivated users cannot be unblocked by the API' },
    });
    expect(await api('POST', `/users/${dormant.id}/activate`)).toMatchObject({ status: 201, body: true });
    expect(await api('POST', `/users/${dormant.id}/block`)).toMatchObject({ status: 201, body: true });
    expect(await api('POST', `/users/${dormant.id}/activate`)).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - A blocked user must be unblocked to be activated' },
    });
  });

  it('When root blocks themselves, then 403; a non-admin gets 403; an unknown user 404; no token 401', async () => {
    expect(await api('POST', '/users/1/block')).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden - The API initiating user cannot be blocked by the API' },
    });
    const user = await make.user();
    const other = await make.user();
    expect(await api('POST', `/users/${other.id}/ban`, { token: user.token })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect(await api('POST', '/users/999999/deactivate')).toMatchObject({
      status: 404,
      body: { message: '404 User Not Found' },
    });
    expect(await api('POST', `/users/${other.id}/block`, { token: null })).toMatchObject({
      status: 401,
      body: { message: '401 Unauthorized' },
    });
  });
});
