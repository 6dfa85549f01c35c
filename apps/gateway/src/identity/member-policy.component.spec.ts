import { useGatewayHarness } from '../testing/gateway.harness';
import { asRecord, type TestUser } from '../testing/identity.api';

/** Who may add, edit and remove members of groups and projects; members.component.spec.ts covers the rest. */
describe('identity: group and project members', () => {
  const { api, make } = useGatewayHarness({ name: 'gateway-identity-member-policy' });
  let owner: TestUser;

  beforeAll(async () => {
    owner = await make.user();
  });

  describe('who manages members (GroupPolicy admin_group_member, ProjectPolicy admin_project_member)', () => {
    const forbidden = { message: '403 Forbidden' };

    it.each([
      ['Guest', 10],
      ['Reporter', 20],
      ['Developer', 30],
      ['Maintainer', 40],
    ])(
      'When a group %s adds, changes or removes a member, then 403 every time, existing or not; leaving is allowed',
      async (_role, level) => {
        const group = await make.group(owner.token);
        const actor = await make.user();
        const target = await make.user();
        const stranger = await make.user();
        await make.member('groups', group.id, actor.id, level, owner.token);
        await make.member('groups', group.id, target.id, 10, owner.token);
        const call = (method: string, path: string, body?: unknown) =>
          api(method, `/groups/${group.id}/members${path}`, { token: actor.token, body });
        for (const body of [
          { user_id: stranger.id, access_level: 40 },
          // An existing member or an unknown user answers the same: nothing is learnt without the permission.
          { user_id: target.id, access_level: 10 },
          { user_id: 987_654, access_level: 10 },
        ]) {
          const res = await call('POST', '', body);
          expect(res.status).toBe(403);
          expect(res.body).toEqual(forbidden);
        }
        expect((await call('PUT', `/${target.id}`, { access_level: 50 })).status).toBe(403);
        expect((await call('PUT', `/${stranger.id}`, { access_level: 10 })).status).toBe(403);
        expect((await call('DELETE', `/${target.id}`)).status).toBe(403);
        const kept = await api('GET', `/groups/${group.id}/members/${target.id}`, { token: owner.token });
        expect(asRecord(kept.body)).toMatchObject({ id: target.id, access_level: 10 });
        const none = await api('GET', `/groups/${group.id}/members/${stranger.id}`, { token: owner.token });
        expect(none.status).toBe(404);
        expect((await call('DELETE', `/${actor.id}`)).status).toBe(204);
      },
    );

    it('When a group Owner adds, changes and removes a member, then 201, 200 and 204', async () => {
      const group = await make.group(owner.token);
      const user = await make.user();
      const url = `/groups/${group.id}/members`;
      expect(
        (await api('POST', url, { token: owner.token, body: { user_id: user.id, access_level: 50 } })).status,
      ).toBe(201);
      expect(
        (await api('PUT', `${url}/${user.id}`, { token: owner.token, body: { access_level: 40 } })).status,
      ).toBe(200);
      expect((await api('DELETE', `${url}/${user.id}`, { token: owner.token })).status).toBe(204);
    });

    it.each([
      ['Guest', 10],
      ['Reporter', 20],
      ['Developer', 30],
    ])('When a project %s manages members, then 403; leaving is allowed', async (_role, level) => {
      const project = await make.project(owner.token);
      const actor = await make.user();
      const target = await make.user();
      await make.member('projects', project.id, actor.id, level, owner.token);
      await make.member('projects', project.id, target.id, 10, owner.token);
      const call = (method: string, path: string, body?: unknown) =>
        api(method, `/projects/${project.id}/members${path}`, { token: actor.token, body });
      const added = await call('POST', '', { user_id: target.id, access_level: 20 });
      expect(added.status).toBe(403);
      expect(added.body).toEqual(forbidden);
      expect((await call('PUT', `/${target.id}`, { access_level: 20 })).status).toBe(403);
      expect((await call('DELETE', `/${target.id}`)).status).toBe(403);
      expect((await call('DELETE', `/${actor.id}`)).status).toBe(204);
    });

    it('When a project Maintainer manages members, then everything below Owner works; granting, changing or removing an Owner is 403', async () => {
      const group = await make.group(owner.token);
      const project = await make.project(owner.token, { namespace_id: group.id });
      const [maintainer, newcomer, projectOwner, hopeful] = [
        await make.user(),
        await make.user(),
        await make.user(),
        await make.user(),
      ];
      await make.member('projects', project.id, maintainer.id, 40, owner.token);
      await make.member('projects', project.id, projectOwner.id, 50, owner.token);
      const call = (method: string, path: string, body?: unknown) =>
        api(method, `/projects/${project.id}/members${path}`, { token: maintainer.token, body });
      expect((await call('POST', '', { user_id: newcomer.id, access_level: 30 })).status).toBe(201);
      expect((await call('PUT', `/${newcomer.id}`, { access_level: 40 })).status).toBe(200);
      const grant = await call('POST', '', { user_id: hopeful.id, access_level: 50 });
      expect(grant.status).toBe(403);
      expect(grant.body).toEqual(forbidden);
      expect((await call('PUT', `/${newcomer.id}`, { access_level: 50 })).status).toBe(403);
      expect((await call('PUT', `/${projectOwner.id}`, { access_level: 40 })).status).toBe(403);
      expect((await call('DELETE', `/${projectOwner.id}`)).status).toBe(403);
      expect((await call('DELETE', `/${newcomer.id}`)).status).toBe(204);
      // The group's Owner is the project's Owner: they may grant it.
      const byOwner = await api('POST', `/projects/${project.id}/members`, {
        token: owner.token,
        body: { user_id: hopeful.id, access_level: 50 },
      });
      expect(byOwner.status).toBe(201);
    });

    it("When the last owner's membership is edited, even to stay Owner, or a personal project's owner is, then 403", async () => {
      const group = await make.group(owner.token);
      const lastOwner = await api('PUT', `/groups/${group.id}/members/${owner.id}`, {
        token: owner.token,
        body: { access_level: 50, expires_at: '2099-01-01' },
      });
      expect(lastOwner.status).toBe(403);
      const personal = await make.project(owner.token);
      for (const token of [owner.token, undefined]) {
        const edit = await api('PUT', `/projects/${personal.id}/members/${owner.id}`, {
          token,
          body: { access_level: 40 },
        });
        expect(edit.status).toBe(403);
      }
    });
  });
});
