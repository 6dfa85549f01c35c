import { EVENT_TYPES, groupHookEntity, projectHookEntity, type NamespaceContext } from '@gl/contracts';
import {
  DEVELOPER,
  MAINTAINER,
  OWNER,
  gatewayEvent,
  groupEventFields,
  projectEventFields,
  useHarness,
} from '@gl/testing';
import { groupNamespace, projectNamespace, startHooksHarness } from './testing/hooks.harness';

const hooksOf = (ns: NamespaceContext) => `/${ns.kind}s/${ns.id}/hooks`;

describe('Project hooks', () => {
  const h = useHarness(startHooksHarness);

  const create = (ns: NamespaceContext, json: Record<string, unknown>) =>
    h.call('POST', hooksOf(ns), { ns, as: MAINTAINER, json });

  it('When a Maintainer adds a hook, then it is shown as GitLab shows it: defaults, keys only, no token', async () => {
    const ns = projectNamespace();
    const reply = await create(ns, {
      url: 'https://hooks.example.com/{path}',
      name: 'CI',
      token: 's3cret',
      issues_events: true,
      url_variables: [{ key: 'path', value: 'secret-path' }],
      custom_headers: [{ key: 'X-Custom', value: 'hidden' }],
    });
    expect(reply.status).toBe(201);
    const hook = projectHookEntity.strict().parse(reply.body);
    expect(hook).toMatchObject({
      url: 'https://hooks.example.com/{path}',
      name: 'CI',
      description: null,
      project_id: ns.id,
      push_events: true,
      issues_events: true,
      note_events: false,
      enable_ssl_verification: true,
      alert_status: 'executable',
      disabled_until: null,
      branch_filter_strategy: 'wildcard',
      push_events_branch_filter: null,
      url_variables: [{ key: 'path' }],
      custom_headers: [{ key: 'X-Custom' }],
    });
    expect(reply.text).not.toContain('s3cret');
    expect(reply.text).not.toContain('secret-path');
    expect(reply.text).not.toContain('hidden');
    const stored = await h.instance.store.find({ kind: 'project', id: ns.id }, hook.id);
    expect(stored?.token).toBe('s3cret');

    const got = await h.call('GET', `${hooksOf(ns)}/${hook.id}`, { ns, as: MAINTAINER });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(reply.body);
    expect(got.body).not.toHaveProperty('token');
  });

  it('When a hook asks for alert_events (beyond GitLab), then create, update, get and list show the switch', async () => {
    const ns = projectNamespace();
    const created = await create(ns, { url: 'https://hooks.example.com/alerts', alert_events: 'true' });
    expect(created.status).toBe(201);
    const hook = projectHookEntity.strict().parse(created.body);
    expect(hook).toMatchObject({ alert_events: true, issues_events: false, push_events: true });
    expect((await create(ns, { url: 'https://hooks.example.com/plain' })).body).toMatchObject({
      alert_events: false,
    });
    const updated = await h.call('PUT', `${hooksOf(ns)}/${hook.id}`, {
      ns,
      as: MAINTAINER,
      json: { alert_events: false, issues_events: true },
    });
    expect(updated.body).toMatchObject({ alert_events: false, issues_events: true });
    const listed = await h.call('GET', hooksOf(ns), { ns, as: MAINTAINER });
    expect((listed.body as { alert_events: boolean }[]).map((entry) => entry.alert_events)).toEqual([
      false,
      false,
    ]);
    expect((await h.call('GET', `${hooksOf(ns)}/${hook.id}`, { ns, as: MAINTAINER })).body).toMatchObject({
      alert_events: false,
    });
    const bad = await create(ns, { url: 'https://hooks.example.com/x', alert_events: 'maybe' });
    expect(bad.status).toBe(400);
  });

  it('When hooks are listed, then they come oldest first with GitLab’s page headers', async () => {
    const ns = projectNamespace();
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      ids.push(((await create(ns, { url: `https://hooks.example.com/${name}` })).body as { id: number }).id);
    }
    const all = await h.call('GET', hooksOf(ns), { ns, as: MAINTAINER });
    expect(all.status).toBe(200);
    expect((all.body as { id: number }[]).map((hook) => hook.id)).toEqual(ids);
    expect(all.headers.get('x-total')).toBe('3');
    const second = await h.call('GET', hooksOf(ns), {
      ns,
      as: MAINTAINER,
      query: { per_page: '2', page: '2' },
    });
    expect((second.body as { id: number }[]).map((hook) => hook.id)).toEqual([ids[2]]);
    expect(second.headers.get('x-total-pages')).toBe('2');
    expect(second.headers.get('x-prev-page')).toBe('1');
    const other = projectNamespace();
    expect((await h.call('GET', hooksOf(other), { ns: other, as: MAINTAINER })).body).toEqual([]);
  });

  it('When the caller is anonymous, below Maintainer, or cannot see the project, then 401, 403, 404', async () => {
    const ns = projectNamespace();
    expect((await h.call('GET', hooksOf(ns), { ns, as: null })).status).toBe(401);
    const developer = await h.call('POST', hooksOf(ns), {
      ns,
      as: DEVELOPER,
      json: { url: 'https://hooks.example.com/' },
    });
    expect(developer.status).toBe(403);
    expect(developer.body).toEqual({ message: '403 Forbidden' });
    const hidden = await h.call('GET', hooksOf(ns), { ns: null, as: MAINTAINER });
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual({ message: '404 Project Not Found' });
  });

  it('When a hook is not the project’s, then GET, PUT and DELETE answer 404 Not found', async () => {
    const ns = projectNamespace();
    const other = projectNamespace();
    const { id } = (await create(other, { url: 'https://hooks.example.com/' })).body as { id: number };
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const json = method === 'PUT' ? { name: 'x' } : undefined;
      const reply = await h.call(method, `${hooksOf(ns)}/${id}`, { ns, as: MAINTAINER, json });
      expect(reply.status).toBe(404);
      expect(reply.body).toEqual({ message: '404 Not found' });
    }
  });

  it('When the URL is missing, then Grape answers 400 url is missing', async () => {
    const reply = await create(projectNamespace(), { name: 'no url' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'url is missing' });
  });

  it.each([
    'ftp://hooks.example.com/',
    'not a url',
    '',
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.0.0.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/',
    'http://internal.example.com/',
    'http://loop.example.com/',
    'http://metadata.google.internal/',
    'https://hooks.example.com/{missing}',
  ])('When the URL is %s, then 422 Invalid url given', async (url) => {
    const reply = await create(projectNamespace(), { url });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual({ error: 'Invalid url given' });
  });

  it('When a URL variable makes the URL local, then the interpolated URL is refused', async () => {
    const reply = await create(projectNamespace(), {
      url: 'http://{host}/hook',
      url_variables: [{ key: 'host', value: '127.0.0.1' }],
    });
    expect(reply.body).toEqual({ error: 'Invalid url given' });
  });

  it('When the host does not resolve, then the hook is kept, as GitLab validates without DNS rebinding protection', async () => {
    expect((await create(projectNamespace(), { url: 'https://nowhere.invalid/hook' })).status).toBe(201);
  });

  it.each([
    ['a token with a line break', { token: 'a\nb' }, { message: { token: ['is invalid'] } }],
    [
      'a name over 255 characters',
      { name: 'n'.repeat(256) },
      { message: { name: ['is too long (maximum is 255 characters)'] } },
    ],
    [
      'a description over 2048 characters',
      { description: 'd'.repeat(2049) },
      { message: { description: ['is too long (maximum is 2048 characters)'] } },
    ],
    [
      'a template over 4096 characters',
      { custom_webhook_template: 't'.repeat(4097) },
      { message: { custom_webhook_template: ['is too long (maximum is 4096 characters)'] } },
    ],
    [
      'a URL variable key of the wrong form',
      { url_variables: [{ key: '1bad', value: 'v' }] },
      { message: { url_variables: ['must be a valid json schema'] } },
    ],
    [
      'a URL variable value over 100 characters',
      { url_variables: [{ key: 'long', value: 'v'.repeat(101) }] },
      { message: { url_variables: ['must be a valid json schema'] } },
    ],
    [
      'a header name of the wrong form',
      { custom_headers: [{ key: 'bad header', value: 'v' }] },
      { error: 'Custom headers validation failed' },
    ],
    [
      'an empty header value',
      { custom_headers: [{ key: 'X-Empty', value: '' }] },
      { error: 'Custom headers validation failed' },
    ],
    [
      'an invalid regex branch filter',
      { branch_filter_strategy: 'regex', push_events_branch_filter: '(' },
      { error: 'Invalid branch filter given' },
    ],
    [
      'a wildcard branch filter with a space',
      { push_events_branch_filter: 'has space' },
      { error: 'Invalid branch filter given' },
    ],
  ])('When the hook has %s, then 422 as GitLab’s model answers', async (_label, fields, body) => {
    const reply = await create(projectNamespace(), { url: 'https://hooks.example.com/', ...fields });
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(body);
  });

  it('When a hook is updated, then given fields change, variables and headers merge, a new URL drops the token', async () => {
    const ns = projectNamespace();
    const { id } = (
      await create(ns, {
        url: 'https://hooks.example.com/{a}',
        token: 'tok',
        url_variables: [{ key: 'a', value: 'one' }],
        custom_headers: [{ key: 'X-One', value: '1' }],
      })
    ).body as { id: number };
    const path = `${hooksOf(ns)}/${id}`;
    const empty = await h.call('PUT', path, { ns, as: MAINTAINER, json: {} });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'No parameters provided' });

    const headers = await h.call('PUT', path, {
      ns,
      as: MAINTAINER,
      json: {
        custom_headers: [{ key: 'X-Two', value: '2' }],
        note_events: true,
        branch_filter_strategy: 'all_branches',
      },
    });
    expect(headers.status).toBe(200);
    expect(headers.body).toMatchObject({
      custom_headers: [{ key: 'X-One' }, { key: 'X-Two' }],
      url_variables: [{ key: 'a' }],
      note_events: true,
      push_events: true,
      branch_filter_strategy: 'all_branches',
    });
    const parent = { kind: 'project' as const, id: ns.id };
    expect((await h.instance.store.find(parent, id))?.token).toBe('tok');

    // A new address: the token, the shared URL variables and the custom headers do not follow it.
    const moved = await h.call('PUT', path, {
      ns,
      as: MAINTAINER,
      json: { url: 'https://other.example.com/' },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      url: 'https://other.example.com/',
      url_variables: [],
      custom_headers: [],
    });
    expect((await h.instance.store.find(parent, id))?.token).toBeNull();

    const blocked = await h.call('PUT', path, { ns, as: MAINTAINER, json: { url: 'http://192.168.1.1/' } });
    expect(blocked.status).toBe(422);
    expect(blocked.body).toEqual({ error: 'Invalid url given' });
  });

  it('When a hook is deleted, then 204 and it is gone', async () => {
    const ns = projectNamespace();
    const { id } = (await create(ns, { url: 'https://hooks.example.com/' })).body as { id: number };
    const deleted = await h.call('DELETE', `${hooksOf(ns)}/${id}`, { ns, as: MAINTAINER });
    expect(deleted.status).toBe(204);
    expect((await h.call('GET', `${hooksOf(ns)}/${id}`, { ns, as: MAINTAINER })).status).toBe(404);
  });
});

describe('Project hooks with local requests allowed', () => {
  const h = useHarness(() => startHooksHarness({ ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES: true }));

  it('When the instance allows local requests, then a loopback or private URL is kept', async () => {
    const ns = projectNamespace();
    for (const url of ['http://127.0.0.1:8080/hook', 'http://internal.example.com/', 'http://localhost/']) {
      const reply = await h.call('POST', hooksOf(ns), { ns, as: MAINTAINER, json: { url } });
      expect(reply.status).toBe(201);
    }
  });
});

describe('Group hooks', () => {
  const h = useHarness(startHooksHarness);

  it('When an Owner on a Premium instance adds one, then it shows the group fields', async () => {
    const ns = groupNamespace();
    const reply = await h.call('POST', hooksOf(ns), {
      ns,
      as: OWNER,
      tier: 'premium',
      json: {
        url: 'https://hooks.example.com/group',
        subgroup_events: true,
        member_events: 'true',
        alert_events: true,
      },
    });
    expect(reply.status).toBe(201);
    const hook = groupHookEntity.strict().parse(reply.body);
    expect(hook).toMatchObject({
      group_id: ns.id,
      subgroup_events: true,
      member_events: true,
      project_events: false,
      alert_events: true,
    });
    const listed = await h.call('GET', hooksOf(ns), { ns, as: OWNER, tier: 'premium' });
    expect(listed.body).toEqual([reply.body]);
    expect(listed.headers.get('x-total')).toBe('1');
  });

  it('When the caller is below Owner or the instance is Free, then 403', async () => {
    const ns = groupNamespace();
    expect((await h.call('GET', hooksOf(ns), { ns, as: MAINTAINER, tier: 'ultimate' })).status).toBe(403);
    const free = await h.call('POST', hooksOf(ns), {
      ns,
      as: OWNER,
      tier: 'free',
      json: { url: 'https://hooks.example.com/' },
    });
    expect(free.status).toBe(403);
    expect((await h.call('GET', hooksOf(ns), { ns, as: null })).status).toBe(401);
    expect((await h.call('GET', hooksOf(ns), { ns: null, as: OWNER })).body).toEqual({
      message: '404 Group Not Found',
    });
  });
});

describe('Hooks and identity events', () => {
  const h = useHarness(startHooksHarness);
  const deliver = (type: string, data: Record<string, unknown>) =>
    h.instance.subscriptions![0]!.handle(gatewayEvent(type, data));
  const add = async (ns: NamespaceContext) => {
    const reply = await h.call('POST', hooksOf(ns), {
      ns,
      as: OWNER,
      tier: 'premium',
      json: { url: 'https://hooks.example.com/' },
    });
    expect(reply.status).toBe(201);
    return (reply.body as { id: number }).id;
  };
  const exists = async (ns: NamespaceContext, id: number) =>
    (await h.instance.store.find({ kind: ns.kind, id: ns.id }, id)) !== null;

  it('When a project is deleted, then its hooks go and others stay', async () => {
    const gone = projectNamespace();
    const kept = projectNamespace();
    const goneHook = await add(gone);
    const keptHook = await add(kept);
    await deliver(EVENT_TYPES.identity.projectDestroyed, projectEventFields(gone.id));
    expect(await exists(gone, goneHook)).toBe(false);
    expect(await exists(kept, keptHook)).toBe(true);
  });

  it('When a group is deleted, then the hooks of the group and of everything below it go', async () => {
    const root = groupNamespace();
    const sub = groupNamespace({ ancestorGroupIds: [root.id] });
    const project = projectNamespace({ ancestorGroupIds: [root.id, sub.id] });
    const sibling = projectNamespace({ ancestorGroupIds: [root.id] });
    const hooks = [await add(sub), await add(project)];
    const siblingHook = await add(sibling);
    await deliver(
      EVENT_TYPES.identity.groupDestroyed,
      groupEventFields(sub.id, { ancestorGroupIds: [root.id] }),
    );
    expect(await exists(sub, hooks[0]!)).toBe(false);
    expect(await exists(project, hooks[1]!)).toBe(false);
    expect(await exists(sibling, siblingHook)).toBe(true);
  });

  it('When a project moves, then its hooks follow, and a group deletion finds them at the new place', async () => {
    const from = groupNamespace();
    const to = groupNamespace();
    const project = projectNamespace({ ancestorGroupIds: [from.id] });
    const hook = await add(project);
    await deliver(
      EVENT_TYPES.identity.projectUpdated,
      projectEventFields(project.id, { ancestorGroupIds: [to.id] }),
    );
    await deliver(EVENT_TYPES.identity.groupDestroyed, groupEventFields(from.id));
    expect(await exists(project, hook)).toBe(true);
    await deliver(EVENT_TYPES.identity.groupDestroyed, groupEventFields(to.id));
    expect(await exists(project, hook)).toBe(false);
  });
});
