import { randomUUID } from 'node:crypto';
import { DURABLES, EVENT_TYPES, type FeatureAccessLevel } from '@gl/contracts';
import { DEVELOPER, GUEST, OWNER, REPORTER, STRANGER, projectEventFields, useHarness } from '@gl/testing';
import { projectNamespace, startDiscussionsHarness } from '../testing/discussions.harness';

/** Project feature switches (issues_enabled, merge_requests_enabled, snippets_enabled, *_access_level). */
describe('discussions: disabled and private project features', () => {
  const h = useHarness(startDiscussionsHarness);
  const identity = () => h.instance.subscriptions!.find((s) => s.durable === DURABLES.discussionsIdentity)!;

  async function project(
    features: Record<string, FeatureAccessLevel>,
    ns = projectNamespace({ visibility: 'public' }),
  ) {
    await identity().handle({
      id: randomUUID(),
      type: EVENT_TYPES.identity.projectUpdated,
      version: 1,
      occurredAt: new Date().toISOString(),
      producer: 'gateway',
      correlationId: null,
      actor: null,
      projectId: ns.id,
      groupId: null,
      data: {
        ...projectEventFields(ns.id, { visibility: 'public', ancestorGroupIds: ns.ancestorGroupIds }),
        features,
      },
    });
    return ns;
  }

  it('When issues are disabled, then lists are empty, one issue is 404 and writes are 403, for members too', async () => {
    const ns = projectNamespace({ visibility: 'public' });
    const made = await h.call('POST', `/projects/${ns.id}/issues`, { ns, json: { title: 'x' } });
    expect(made.status).toBe(201);
    await project({ issues: 'disabled' }, ns);
    const base = `/projects/${ns.id}/issues`;
    const list = await h.call('GET', base, { ns, as: OWNER });
    expect(list).toMatchObject({ status: 200, body: [] });
    expect(list.headers.get('x-total')).toBe('0');
    expect(await h.call('GET', `${base}/1`, { ns, as: OWNER })).toMatchObject({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect((await h.call('GET', `${base}/1/notes`, { ns, as: OWNER })).status).toBe(404);
    expect(await h.call('POST', base, { ns, as: OWNER, json: { title: 'New' } })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect((await h.call('PUT', `${base}/1`, { ns, as: OWNER, json: { title: 'T' } })).status).toBe(403);
    // authenticate_non_get! first: anonymous writes stay 401.
    expect((await h.call('POST', base, { ns, as: null, json: { title: 'New' } })).status).toBe(401);
    // Enabled again, the issue is there as before.
    await project({ issues: 'enabled' }, ns);
    expect((await h.call('GET', `${base}/1`, { ns, as: OWNER })).status).toBe(200);
  });

  it('When merge requests or snippets are disabled, then their routes are 403', async () => {
    const ns = await project({ merge_requests: 'disabled', snippets: 'disabled' });
    expect(await h.call('GET', `/projects/${ns.id}/merge_requests`, { ns, as: OWNER })).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden' },
    });
    expect((await h.call('GET', `/projects/${ns.id}/merge_requests/1`, { ns, as: DEVELOPER })).status).toBe(
      403,
    );
    expect((await h.call('GET', `/projects/${ns.id}/snippets`, { ns, as: OWNER })).status).toBe(403);
    // Issues stay enabled.
    expect((await h.call('GET', `/projects/${ns.id}/issues`, { ns, as: OWNER })).status).toBe(200);
  });

  it('When features are private, then members with the minimum role use them (Guest: issues, Reporter: merge requests)', async () => {
    const ns = await project({ issues: 'private', merge_requests: 'private' });
    const made = await h.call('POST', `/projects/${ns.id}/issues`, { ns, as: GUEST, json: { title: 'g' } });
    expect(made.status).toBe(201);
    const asStranger = await h.call('GET', `/projects/${ns.id}/issues`, { ns, as: STRANGER });
    expect(asStranger).toMatchObject({ status: 200, body: [] });
    const asGuest = await h.call('GET', `/projects/${ns.id}/issues`, { ns, as: GUEST });
    expect((asGuest.body as unknown[]).length).toBe(1);
    const mrs = `/projects/${ns.id}/merge_requests`;
    expect((await h.call('GET', mrs, { ns, as: GUEST })).status).toBe(403);
    expect((await h.call('GET', mrs, { ns, as: REPORTER })).status).toBe(200);
  });
});
