import { EVENT_TYPES, type IdentityRevision, type NamespaceContext } from '@gl/contracts';
import { signedContextHeader, testPrincipal, useHarness } from '@gl/testing';
import { startRegistryHarness } from './testing/registry.harness';

const ID = EVENT_TYPES.identity;
const READER = testPrincipal({ id: 801, username: 'reader8' });

/**
 * GET /registry/repositories/:id and the group list decide from the registry's own projection of
 * memberships and visibility. Each request carries the identity revisions the gateway signed; the
 * registry answers only once its projection has applied them.
 */
describe('registry: revocations count on the very next request', () => {
  const h = useHarness(startRegistryHarness);
  let revision = 0;
  const next = (): number => ++revision;

  const member = (type: string, projectId: number, rev: number) =>
    h.identity(type, {
      sourceType: 'project',
      sourceId: projectId,
      userId: READER.id,
      accessLevel: 20,
      expiresAt: null,
      revision: rev,
    });
  const get = (path: string, identityRevision: IdentityRevision, namespace: NamespaceContext | null = null) =>
    h.call('GET', path, {
      as: READER,
      headers: signedContextHeader({ principal: READER, namespace, identityRevision }),
    });

  it('When a Reporter is removed from a private project, then the repository is 404 on their next request', async () => {
    const project = await h.seedProject('rev-group/secret');
    const repositoryId = await h.pushTag(project.fullPath, 'latest');
    const added = next();
    await member(ID.memberAdded, project.id, added);
    expect((await get(`/registry/repositories/${repositoryId}`, { user: added, visibility: 0 })).status).toBe(
      200,
    );
    const removed = next();
    // The consumer applies the removal while the request the gateway signed after it is in flight.
    const [reply] = await Promise.all([
      get(`/registry/repositories/${repositoryId}`, { user: removed, visibility: 0 }),
      member(ID.memberRemoved, project.id, removed),
    ]);
    expect(reply.status).toBe(404);
  });

  it('When a project of a public group is a member-only one, then it leaves the group list with the membership', async () => {
    const group = await h.seedGroup('rev-open', { visibility: 'public' });
    const project = await h.seedProject('rev-open/inner', { ancestorGroupIds: [group.id] });
    await h.pushTag(project.fullPath, 'v1');
    const ns = { ...group, accessLevel: 0 };
    const added = next();
    await member(ID.memberAdded, project.id, added);
    const listed = await get(`/groups/${group.id}/registry/repositories`, { user: added, visibility: 0 }, ns);
    expect((listed.body as { project_id: number }[]).map((r) => r.project_id)).toEqual([project.id]);
    const removed = next();
    await member(ID.memberRemoved, project.id, removed);
    const after = await get(
      `/groups/${group.id}/registry/repositories`,
      { user: removed, visibility: 0 },
      ns,
    );
    expect(after.status).toBe(200);
    expect(after.body).toEqual([]);
  });

  it('When the projection has not applied the revision within the bound, then 503 with Retry-After', async () => {
    const project = await h.seedProject('rev-group/late', { visibility: 'public' });
    const repositoryId = await h.pushTag(project.fullPath, 'latest');
    const reply = await get(`/registry/repositories/${repositoryId}`, {
      user: 0,
      visibility: revision + 1_000,
    });
    expect(reply.status).toBe(503);
    expect(reply.body).toEqual({ message: '503 Service Unavailable' });
    expect(reply.headers.get('retry-after')).toBe('1');
  }, 10_000);
});
