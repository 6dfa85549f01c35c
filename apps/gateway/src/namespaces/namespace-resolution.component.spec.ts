import type { NamespaceDoc, ProjectDoc } from '../identity/identity.models';
import { startGatewayHarness, type GatewayHarness } from '../testing/gateway.harness';
import { addMember, makeGroup, makeProject, makeUser, type UserFixture } from '../testing/identity.fixtures';

interface Echo {
  url: string;
  ctx: {
    namespace: {
      kind: string;
      id: number;
      fullPath: string;
      accessLevel: number;
      groupAccessLevel?: number;
      ancestorGroupIds: number[];
    } | null;
  };
}

describe('gateway namespace resolution', () => {
  let gw: GatewayHarness;
  let member: UserFixture;
  let outsider: UserFixture;
  let admin: UserFixture;
  let parent: NamespaceDoc;
  let child: NamespaceDoc;
  let project: ProjectDoc;

  beforeAll(async () => {
    gw = await startGatewayHarness();
    member = await makeUser(gw.models);
    outsider = await makeUser(gw.models);
    admin = await makeUser(gw.models, { admin: true });
    parent = await makeGroup(gw.models, { path: 'Acme' });
    child = await makeGroup(gw.models, { path: 'platform', parent });
    project = await makeProject(gw.models, child, { path: 'api' });
    await addMember(gw.models, { kind: 'group', id: parent._id }, member.id, 20);
    await addMember(gw.models, { kind: 'project', id: project._id }, member.id, 40);
  });
  afterAll(() => gw.close());

  const echo = async (response: Response): Promise<Echo> => {
    expect(response.status).toBe(200);
    return (await response.json()) as Echo;
  };

  it('When a group is addressed by id or by URL-encoded full path, then both resolve to the numeric id', async () => {
    const byId = await echo(await gw.call(`/api/v4/groups/${child._id}/boards`, { token: member.token }));
    const byPath = await echo(
      await gw.call('/api/v4/groups/acme%2Fplatform/boards?page=2', { token: member.token }),
    );
    expect(byPath.url).toBe(`/api/v4/groups/${child._id}/boards?page=2`);
    expect(byPath.ctx.namespace).toEqual(byId.ctx.namespace);
    expect(byPath.ctx.namespace).toMatchObject({
      kind: 'group',
      fullPath: 'Acme/platform',
      ancestorGroupIds: [parent._id],
    });
  });

  it('When a project is addressed by encoded path through subgroups, then it resolves with the highest access level', async () => {
    const body = await echo(
      await gw.call('/api/v4/projects/acme%2Fplatform%2Fapi/issues/3/discussions', { token: member.token }),
    );
    expect(body.url).toBe(`/api/v4/projects/${project._id}/issues/3/discussions`);
    // Reporter on the top group, Maintainer on the project: the project membership wins; the groups' level
    // travels beside it for group actions started from the project (promoting a label).
    expect(body.ctx.namespace).toMatchObject({
      kind: 'project',
      id: project._id,
      accessLevel: 40,
      groupAccessLevel: 20,
    });
  });

  it('When membership is on an ancestor group, then subgroups inherit it', async () => {
    const body = await echo(await gw.call(`/api/v4/groups/${child._id}/boards`, { token: member.token }));
    expect(body.ctx.namespace?.accessLevel).toBe(20);
  });

  it('When a private group or project is addressed by a non-member, then 404 as if it did not exist', async () => {
    const group = await gw.call(`/api/v4/groups/${child._id}/boards`, { token: outsider.token });
    expect(group.status).toBe(404);
    expect(await group.json()).toEqual({ message: '404 Group Not Found' });
    const proj = await gw.call('/api/v4/projects/acme%2Fplatform%2Fapi/events', { token: outsider.token });
    expect(proj.status).toBe(404);
    expect(await proj.json()).toEqual({ message: '404 Project Not Found' });
    const unknown = await gw.call('/api/v4/groups/999999/boards', { token: outsider.token });
    expect(await unknown.json()).toEqual({ message: '404 Group Not Found' });
  });

  it('When an admin addresses a private group, then it resolves with no membership', async () => {
    const body = await echo(await gw.call(`/api/v4/groups/${child._id}/boards`, { token: admin.token }));
    expect(body.ctx.namespace?.accessLevel).toBe(0);
  });

  it('When a membership has expired, then it no longer counts', async () => {
    const lapsed = await makeUser(gw.models);
    await addMember(gw.models, { kind: 'group', id: parent._id }, lapsed.id, 30, '2020-01-01');
    expect((await gw.call(`/api/v4/groups/${parent._id}/boards`, { token: lapsed.token })).status).toBe(404);
  });

  it('When a private group holds a project the caller belongs to, then the group is visible to them', async () => {
    const projectOnly = await makeUser(gw.models);
    await addMember(gw.models, { kind: 'project', id: project._id }, projectOnly.id, 30);
    const body = await echo(
      await gw.call(`/api/v4/groups/${parent._id}/boards`, { token: projectOnly.token }),
    );
    expect(body.ctx.namespace?.accessLevel).toBe(0);
    const inProject = await echo(
      await gw.call(`/api/v4/projects/${project._id}/labels`, { token: projectOnly.token }),
    );
    expect(inProject.ctx.namespace).toMatchObject({ accessLevel: 30, groupAccessLevel: 0 });
  });

  describe('visibility', () => {
    it('When a group is internal, then any signed-in user sees it but an anonymous caller does not', async () => {
      const internal = await makeGroup(gw.models, { visibility: 'internal' });
      expect((await gw.call(`/api/v4/groups/${internal._id}/epics`, { token: outsider.token })).status).toBe(
        200,
      );
      expect((await gw.call(`/api/v4/groups/${internal._id}/epics`, { token: null })).status).toBe(404);
    });

    it('When a project is public, then an anonymous caller sees it on anonymous-capable routes', async () => {
      const open = await makeGroup(gw.models, { visibility: 'public' });
      const pub = await makeProject(gw.models, open, { visibility: 'public' });
      const body = await echo(await gw.call(`/api/v4/projects/${pub._id}/events`, { token: null }));
      expect(body.ctx.namespace).toMatchObject({ id: pub._id, accessLevel: 0 });
    });

    it('When the route requires authentication, then anonymous gets 401 before any lookup', async () => {
      const response = await gw.call('/api/v4/groups/does-not-exist/boards', { token: null });
      expect(response.status).toBe(401);
    });
  });

  it('When a project is addressed by a bare name without its namespace, then 404 (GitLab needs a full path)', async () => {
    const response = await gw.call('/api/v4/projects/api/events', { token: admin.token });
    expect(response.status).toBe(404);
  });
});
