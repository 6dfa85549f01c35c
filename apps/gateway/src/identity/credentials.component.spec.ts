import { EVENT_TYPES, emailEntity, personalAccessTokenEntity } from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord, unique } from '../testing/identity.api';

describe('identity: e-mail addresses and personal access tokens', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-credentials' });

  describe('/user/emails and /users/:id/emails/:email_id', () => {
    it('When a user adds, reads and deletes an address, then 201 unconfirmed, 200, 204 and user.updated each time', async () => {
      const user = await make.user();
      const address = `${unique('second')}@example.com`;
      const added = await api('POST', '/user/emails', { token: user.token, body: { email: address } });
      expect(added.status).toBe(201);
      const email = emailEntity.parse(added.body);
      expect(email).toMatchObject({ email: address, confirmed_at: null });

      const shown = await api('GET', `/user/emails/${email.id}`, { token: user.token });
      expect(shown).toMatchObject({ status: 200, body: email });
      const listed = await api('GET', '/user/emails', { token: user.token });
      expect(listed.headers.get('x-total')).toBe('2');
      expect(asList(listed.body).map((e) => e.email)).toContain(address);

      const deleted = await api('DELETE', `/user/emails/${email.id}`, { token: user.token });
      expect(deleted.status).toBe(204);
      expect(await api('GET', `/user/emails/${email.id}`, { token: user.token })).toMatchObject({
        status: 404,
        body: { message: '404 Email Not Found' },
      });
      const updates = (await published(EVENT_TYPES.identity.userUpdated)).filter(
        (e) => e.data.userId === user.id,
      );
      expect(updates.map((e) => e.data.emails)).toEqual([[address], []]);
    });

    it("When an address is invalid or someone else's, then 400 with the model error; another user's address id is 404", async () => {
      const user = await make.user();
      const other = await make.user();
      expect(await api('POST', '/user/emails', { token: user.token, body: { email: 'nope' } })).toMatchObject(
        {
          status: 400,
          body: { message: { email: ['is invalid'] } },
        },
      );
      expect(
        await api('POST', '/user/emails', {
          token: user.token,
          body: { email: `${other.username}@example.com` },
        }),
      ).toMatchObject({ status: 400, body: { message: { email: ['has already been taken'] } } });
      expect((await api('POST', '/user/emails', { token: user.token, body: {} })).status).toBe(400);
      const theirs = asList((await api('GET', '/user/emails', { token: other.token })).body)[0]!;
      expect((await api('DELETE', `/user/emails/${String(theirs.id)}`, { token: user.token })).status).toBe(
        404,
      );
      expect((await api('POST', '/user/emails', { token: null, body: { email: 'a@b.c' } })).status).toBe(401);
    });

    it("When root deletes a user's address, then 204; a non-admin gets 403; an unknown address 404", async () => {
      const user = await make.user();
      const added = await api('POST', `/users/${user.id}/emails`, {
        body: { email: `${unique('adm')}@example.com` },
      });
      const id = asRecord(added.body).id as number;
      expect((await api('DELETE', `/users/${user.id}/emails/${id}`, { token: user.token })).status).toBe(403);
      expect((await api('DELETE', `/users/${user.id}/emails/${id}`)).status).toBe(204);
      expect(await api('DELETE', `/users/${user.id}/emails/${id}`)).toMatchObject({
        status: 404,
        body: { message: '404 Email Not Found' },
      });
    });
  });

  describe('/personal_access_tokens', () => {
    it('When a user lists tokens, then only their own, filtered by state; another user_id is 401', async () => {
      const user = await make.user();
      const other = await make.user();
      const second = await make.token(user.id, ['read_api']);
      const mine = await api('GET', '/personal_access_tokens', { token: user.token });
      expect(mine.status).toBe(200);
      expect(mine.headers.get('x-total')).toBe('2');
      const tokens = asList(mine.body).map((t) => personalAccessTokenEntity.parse(t));
      expect(tokens.every((t) => t.user_id === user.id && t.active)).toBe(true);
      expect(
        asList((await api('GET', `/personal_access_tokens?user_id=${user.id}`, { token: user.token })).body),
      ).toHaveLength(2);
      expect(
        (await api('GET', `/personal_access_tokens?user_id=${other.id}`, { token: user.token })).status,
      ).toBe(401);

      const self = await api('GET', '/personal_access_tokens/self', { token: second });
      const secondId = asRecord(self.body).id as number;
      expect(asRecord(self.body).scopes).toEqual(['read_api']);
      expect((await api('DELETE', `/personal_access_tokens/${secondId}`, { token: user.token })).status).toBe(
        204,
      );
      const inactive = await api('GET', '/personal_access_tokens?state=inactive', { token: user.token });
      expect(asList(inactive.body).map((t) => t.id)).toEqual([secondId]);
      expect(asList(inactive.body)[0]).toMatchObject({ revoked: true, active: false });
      const refused = await api('GET', '/user', { token: second });
      expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    });

    it("When root lists by user_id and reads a token, then anyone's; a user reading another's token gets 401, root 404 for none", async () => {
      const user = await make.user();
      const other = await make.user();
      const listed = await api('GET', `/personal_access_tokens?user_id=${user.id}`);
      expect(asList(listed.body).map((t) => t.user_id)).toEqual([user.id]);
      const id = asList(listed.body)[0]!.id as number;
      expect((await api('GET', `/personal_access_tokens/${id}`)).status).toBe(200);
      expect(await api('GET', `/personal_access_tokens/${id}`, { token: other.token })).toMatchObject({
        status: 401,
        body: { message: '401 Unauthorized' },
      });
      expect(await api('GET', '/personal_access_tokens/99999999')).toMatchObject({
        status: 404,
        body: { message: '404 Not Found' },
      });
    });

    it("When a user revokes another's token, then 400 Not permitted; an unknown id 404; revoking self stops it at once", async () => {
      const user = await make.user();
      const other = await make.user();
      const theirs = asList((await api('GET', '/personal_access_tokens', { token: other.token })).body)[0]!;
      expect(
        await api('DELETE', `/personal_access_tokens/${String(theirs.id)}`, { token: user.token }),
      ).toMatchObject({
        status: 400,
        body: { message: '400 Bad request - Not permitted to revoke' },
      });
      expect(await api('DELETE', '/personal_access_tokens/99999999', { token: user.token })).toMatchObject({
        status: 404,
        body: { message: '404 Not found' },
      });
      expect((await api('DELETE', '/personal_access_tokens/self', { token: user.token })).status).toBe(204);
      expect((await api('GET', '/user', { token: user.token })).status).toBe(401);
      expect((await api('GET', '/personal_access_tokens', { token: null })).status).toBe(401);
    });
  });
});
