import {
  EVENT_TYPES,
  groupDetailEntity,
  groupEventData,
  namespaceEntity,
  projectEventData,
} from '@gl/contracts';
import { useGatewayHarness } from '../testing/gateway.harness';
import { asList, asRecord } from '../testing/identity.api';

describe('identity: descendant groups, skip_groups, group transfer and namespaces', () => {
  const { api, published, make } = useGatewayHarness({ name: 'gateway-identity-hierarchy' });

  describe('GET /groups/:id/descendant_groups and skip_groups', () => {
    it('When listing descendants, then every visible group below at any depth, paginated, minus skip_groups', async () => {
      const owner = await make.user();
      const top = await make.group(owner.token, { visibility: 'public' });
      const child = await make.group(owner.token, { parent_id: top.id, visibility: 'public' });
      const grandchild = await make.group(owner.token, { parent_id: child.id, visibility: 'public' });
      const hidden = await make.group(owner.token, { parent_id: child.id, visibility: 'private' });

      const all = await api('GET', `/groups/${top.id}/descendant_groups`, { token: owner.token });
      expect(all.status).toBe(200);
      expect(
        asList(all.body)
          .map((g) => g.id)
          .sort(),
      ).toEqual([child.id, grandchild.id, hidden.id].sort());
      const anonymous = await api('GET', `/groups/${top.id}/descendant_groups?per_page=1`, { token: null });
      expect(anonymous.headers.get('x-total')).toBe('2');
      expect(anonymous.headers.get('link')).toContain('rel="next"');

      const skipped = await api(
        'GET',
        `/groups/${top.id}/descendant_groups?skip_groups[]=${child.id}&skip_groups[]=${hidden.id}`,
        {
          token: owner.token,
        },
      );
      expect(asList(skipped.body).map((g) => g.id)).toEqual([grandchild.id]);
      const commas = await api('GET', `/groups?skip_groups=${top.id},${child.id}&search=${top.path}`, {
        token: owner.token,
      });
      expect(asList(commas.body).map((g) => g.id)).not.toContain(top.id);
      expect(await api('GET', '/groups?skip_groups=abc', { token: owner.token })).toMatchObject({
        status: 400,
        body: { error: 'skip_groups is invalid' },
      });
      expect((await api('GET', '/groups/999999/descendant_groups')).status).toBe(404);
    });
  });

  describe('POST /groups/:id/transfer', () => {
    it('When an Owner moves a group under another, then 201 GroupDetail, paths and ancestry follow, visibility is capped and events carry it', async () => {
      const owner = await make.user();
      const source = await make.group(owner.token, { visibility: 'public' });
      const inner = await make.group(owner.token, { parent_id: source.id, visibility: 'public' });
      const project = await make.project(owner.token, {
        namespace_id: inner.id,
        path: 'app',
        visibility: 'public',
      });
      const target = await make.group(owner.token, { visibility: 'internal' });

      const res = await api('POST', `/groups/${source.id}/transfer`, {
        token: owner.token,
        body: { group_id: target.id },
      });
      expect(res.status).toBe(201);
      const moved = groupDetailEntity.parse(res.body);
      expect(moved).toMatchObject({
        parent_id: target.id,
        full_path: `${target.path}/${source.path}`,
        visibility: 'internal',
      });
      const movedInner = asRecord((await api('GET', `/groups/${inner.id}`, { token: owner.token })).body);
      expect(movedInner).toMatchObject({
        full_path: `${target.path}/${source.path}/${inner.path}`,
        visibility: 'internal',
      });
      const movedProject = asRecord(
        (
          await api(
            'GET',
            `/projects/${encodeURIComponent(`${target.path}/${source.path}/${inner.path}/app`)}`,
            {
              token: owner.token,
            },
          )
        ).body,
      );
      expect(movedProject).toMatchObject({ id: project.id, visibility: 'internal' });
      expect(
        (
          await api('GET', `/projects/${encodeURIComponent(project.path_with_namespace)}`, {
            token: owner.token,
          })
        ).status,
      ).toBe(404);

      const groupEvents = (await published(EVENT_TYPES.identity.groupUpdated)).filter(
        (e) => e.data.groupId === inner.id,
      );
      expect(groupEventData.parse(groupEvents.at(-1)!.data)).toMatchObject({
        ancestorGroupIds: [target.id, source.id],
        visibility: 'internal',
      });
      const projectEvents = (await published(EVENT_TYPES.identity.projectUpdated)).filter(
        (e) => e.data.projectId === project.id,
      );
      expect(projectEventData.parse(projectEvents.at(-1)!.data)).toMatchObject({
        ancestorGroupIds: [target.id, source.id, inner.id],
        fullPath: `${target.path}/${source.path}/${inner.path}/app`,
      });

      // Back to the top level: no group_id.
      const root = await api('POST', `/groups/${source.id}/transfer`, { token: owner.token, body: {} });
      expect(root.status).toBe(201);
      expect(asRecord(root.body)).toMatchObject({ parent_id: null, full_path: source.path });
    });

    it("When the move is impossible, then 400 with Groups::TransferService's message", async () => {
      const owner = await make.user();
      const top = await make.group(owner.token);
      const child = await make.group(owner.token, { parent_id: top.id });
      const clash = await make.group(owner.token);
      await make.group(owner.token, { parent_id: clash.id, path: child.path });
      const failed = (reason: string) => ({ status: 400, body: { message: `Transfer failed: ${reason}` } });

      expect(await api('POST', `/groups/${top.id}/transfer`, { token: owner.token, body: {} })).toMatchObject(
        failed('Group is already a root group.'),
      );
      expect(
        await api('POST', `/groups/${child.id}/transfer`, { token: owner.token, body: { group_id: top.id } }),
      ).toMatchObject(failed('Group is already associated to the parent group.'));
      expect(
        await api('POST', `/groups/${child.id}/transfer`, {
          token: owner.token,
          body: { group_id: clash.id },
        }),
      ).toMatchObject(failed('The parent group already has a subgroup or a project with the same path.'));
      const nested = await make.group(owner.token, { parent_id: child.id });
      expect(
        await api('POST', `/groups/${top.id}/transfer`, {
          token: owner.token,
          body: { group_id: nested.id },
        }),
      ).toMatchObject(failed('Cannot transfer group to one of its subgroup.'));
      const stranger = await make.user();
      const theirs = await make.group(stranger.token, { visibility: 'public' });
      expect(
        await api('POST', `/groups/${child.id}/transfer`, {
          token: owner.token,
          body: { group_id: theirs.id },
        }),
      ).toMatchObject(failed("You don't have enough permissions."));
    });

    it('When a non-Owner transfers, then 403; an invisible target group 404; no token 401', async () => {
      const owner = await make.user();
      const developer = await make.user();
      const group = await make.group(owner.token);
      await make.member('groups', group.id, developer.id, 30, owner.token);
      expect(
        (await api('POST', `/groups/${group.id}/transfer`, { token: developer.token, body: {} })).status,
      ).toBe(403);
      const hidden = await make.group((await make.user()).token, { visibility: 'private' });
      expect(
        await api('POST', `/groups/${group.id}/transfer`, {
          token: owner.token,
          body: { group_id: hidden.id },
        }),
      ).toMatchObject({
        status: 404,
        body: { message: '404 Group Not Found' },
      });
      expect((await api('POST', `/groups/${group.id}/transfer`, { token: null, body: {} })).status).toBe(401);
    });
  });

  describe('GET /namespaces', () => {
    it("When a user lists namespaces, then their own and their groups'; an Owner sees member counts; by id or path for members only", async () => {
      const user = await make.user();
      const owner = await make.user();
      const group = await make.group(owner.token, { visibility: 'public' });
      await make.member('groups', group.id, user.id, 30, owner.token);
      const others = await make.group(owner.token, { visibility: 'public' });

      const res = await api('GET', '/namespaces', { token: user.token });
      expect(res.status).toBe(200);
      const rows = asList(res.body).map((n) => namespaceEntity.parse(n));
      expect(rows.map((n) => [n.kind, n.full_path])).toEqual([
        ['user', user.username],
        ['group', group.full_path],
      ]);
      expect(rows[0]!.avatar_url).toMatch(
        /^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=80&d=identicon$/,
      );
      expect(rows[1]).not.toHaveProperty('members_count_with_descendants');

      const asOwner = await api('GET', `/namespaces/${group.id}`, { token: owner.token });
      expect(asRecord(asOwner.body).members_count_with_descendants).toBe(2);
      expect(
        asRecord(
          (await api('GET', `/namespaces/${encodeURIComponent(user.username)}`, { token: user.token })).body,
        ).kind,
      ).toBe('user');
      expect(await api('GET', `/namespaces/${others.id}`, { token: user.token })).toMatchObject({
        status: 404,
        body: { message: '404 Namespace Not Found' },
      });
      const admin = await api('GET', `/namespaces/${group.id}`);
      expect(asRecord(admin.body)).toMatchObject({ projects_count: 0, root_repository_size: 0 });
      expect(
        (await api('GET', '/namespaces?search=zzzz-none', { token: user.token })).headers.get('x-total'),
      ).toBe('0');
      expect((await api('GET', '/namespaces', { token: null })).status).toBe(401);
    });
  });
});
