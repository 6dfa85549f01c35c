import { INTERNAL_CONTEXT_HEADER } from '@gl/contracts';
import { signContext } from '@gl/service-kit';
import { TEST_CONTEXT_SECRET, signedContextHeader } from '@gl/testing';
import { startGatewayHarness, type GatewayHarness } from '../testing/gateway.harness';
import { addMember, makeGroup, makeProject, makeUser } from '../testing/identity.fixtures';
import type { ProjectDoc } from '../identity/identity.models';

interface Echo {
  service: string;
  method: string;
  url: string;
  params: Record<string, unknown>;
  ctx: {
    requestId: string;
    tier: string;
    principal: { id: number } | null;
    namespace: { id: number } | null;
    identityRevision?: { user: number; visibility: number };
  };
  headers: { authorization: string | null; requestId: string | null; forwardedHost: string | null };
}

describe('gateway forwarding', () => {
  let gw: GatewayHarness;
  let project: ProjectDoc;

  beforeAll(async () => {
    gw = await startGatewayHarness({ tier: 'free' });
    const group = await makeGroup(gw.models, { path: 'ops' });
    const sub = await makeGroup(gw.models, { path: 'web', parent: group });
    project = await makeProject(gw.models, sub, { path: 'shop' });
  });
  afterAll(() => gw.close());

  const echo = async (response: Response): Promise<Echo> => {
    expect(response.status).toBe(200);
    return (await response.json()) as Echo;
  };

  it.each([
    ['/api/v4/groups/ops/boards/1/lists', 'boards'],
    ['/api/v4/groups/ops/milestones', 'boards'],
    ['/api/v4/projects/ops%2Fweb%2Fshop/merge_requests/1/discussions', 'discussions'],
    ['/api/v4/projects/ops%2Fweb%2Fshop/repository/commits/abc/discussions', 'discussions'],
    ['/api/v4/groups/ops/epics/1/discussions', 'discussions'],
    ['/api/v4/projects/ops%2Fweb%2Fshop/alert_management/http_integrations', 'alerts'],
    ['/api/v4/projects/ops%2Fweb%2Fshop/error_tracking/settings', 'alerts'],
    ['/api/v4/notification_settings', 'notifications'],
    ['/api/v4/groups/ops/notification_settings', 'notifications'],
    ['/api/v4/users/1/events', 'events'],
    ['/api/v4/projects/ops%2Fweb%2Fshop/events', 'events'],
    ['/api/v4/projects/ops%2Fweb%2Fshop/registry/repositories', 'registry'],
    ['/api/v4/groups/ops/registry/repositories', 'registry'],
    ['/api/v4/registry/repositories/5', 'registry'],
    // Express matches routes case-insensitively and with a trailing slash; the routes' index keeps that.
    ['/API/V4/Groups/ops/Boards', 'boards'],
    ['/api/v4/groups/ops/boards/', 'boards'],
    ['/api/v4/snippets/public', 'discussions'],
    ['/api/v4/events/', 'events'],
  ])('When %s is requested, then the %s service answers', async (path, service) => {
    expect((await echo(await gw.call(path))).service).toBe(service);
  });

  it("When the client sends its own internal context, then it is replaced by the gateway's", async () => {
    const forged = signContext(TEST_CONTEXT_SECRET, {
      v: 1,
      requestId: 'forged',
      exp: Date.now() + 60_000,
      tier: 'ultimate',
      externalUrl: 'http://evil',
      principal: null,
      namespace: null,
    });
    const body = await echo(
      await gw.call('/api/v4/notification_settings', { headers: { [INTERNAL_CONTEXT_HEADER]: forged } }),
    );
    expect(body.ctx.requestId).not.toBe('forged');
    expect(body.ctx.tier).toBe('free');
    expect(body.ctx.principal?.id).toBe(1);
  });

  it('When a service is called directly without a valid context, then it refuses', async () => {
    const direct = await fetch(`${gw.upstreams.boards.url}/api/v4/groups/1/boards`);
    expect(direct.status).toBe(401);
    const forged = await fetch(`${gw.upstreams.boards.url}/api/v4/groups/1/boards`, {
      headers: signedContextHeader({}, 'another-secret-of-sufficient-length-000000'),
    });
    expect(forged.status).toBe(401);
  });

  it('When a request id is given, then it reaches the service and comes back; otherwise one is made', async () => {
    const given = await gw.call('/api/v4/notification_settings', { headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    expect((await echo(given)).headers.requestId).toBe('abc-123');
    const made = await gw.call('/api/v4/notification_settings');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('When a body is sent, then it is streamed through untouched', async () => {
    const body = await echo(
      await gw.call('/api/v4/groups/ops/boards', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Sprint', nested: { deep: [1, 2] } }),
      }),
    );
    expect(body.method).toBe('POST');
    expect(body.params).toMatchObject({ name: 'Sprint', nested: { deep: [1, 2] } });
  });

  it('When the registry posts notifications, then no user token is needed and Authorization is passed on', async () => {
    const body = await echo(
      await gw.call('/api/v4/container_registry_event/events', {
        token: null,
        method: 'POST',
        headers: { Authorization: 'registry-shared-secret', 'content-type': 'application/json' },
        body: '{"events":[]}',
      }),
    );
    expect(body.headers.authorization).toBe('registry-shared-secret');
    expect(body.ctx.principal).toBeNull();
  });

  it('When an alert is posted to a project path with subgroups, then it reaches alerts with the project resolved', async () => {
    for (const path of [
      '/ops/web/shop/alerts/notify/my-endpoint/a1b2c3.json',
      '/ops/web/shop/alerts/notify.json',
      '/ops/web/shop/prometheus/alerts/notify.json',
    ]) {
      const body = await echo(
        await gw.call(path, {
          token: null,
          method: 'POST',
          headers: { Authorization: 'Bearer integration-token' },
          body: '{}',
        }),
      );
      expect(body.service).toBe('alerts');
      expect(body.url).toBe(path);
      expect(body.ctx.namespace?.id).toBe(project._id);
      expect(body.headers.authorization).toBe('Bearer integration-token');
    }
    const unknown = await gw.call('/nope/nothing/alerts/notify.json', {
      token: null,
      method: 'POST',
      body: '{}',
    });
    expect(unknown.status).toBe(404);
  });

  it("When API v3 is called, then 410 with GitLab's message", async () => {
    const response = await gw.call('/api/v3/projects');
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it('When an unknown /api/v4 path is called, then 404 {"error":"404 Not Found"}', async () => {
    const response = await gw.call('/api/v4/no/such/thing');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ error: '404 Not Found' });
  });
});

describe('gateway auth policy for anonymous writes', () => {
  let gw: GatewayHarness;
  let secret: ProjectDoc;
  let open: ProjectDoc;
  let privateGroup: number;

  beforeAll(async () => {
    gw = await startGatewayHarness();
    const hidden = await makeGroup(gw.models);
    privateGroup = hidden._id;
    secret = await makeProject(gw.models, hidden);
    open = await makeProject(gw.models, await makeGroup(gw.models, { visibility: 'public' }), {
      visibility: 'public',
    });
  });
  afterAll(() => gw.close());

  const anonymous = (method: string, path: string) =>
    gw.call(path, {
      token: null,
      method,
      ...(method === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' }),
    });

  it.each([
    ['POST', (p: number) => `/api/v4/projects/${p}/issues`],
    ['PUT', (p: number) => `/api/v4/projects/${p}/issues/1`],
    ['PUT', (p: number) => `/api/v4/projects/${p}/merge_requests/1`],
    ['POST', (p: number) => `/api/v4/projects/${p}/merge_requests`],
    ['PUT', (p: number) => `/api/v4/projects/${p}/merge_requests/1/merge`],
  ])(
    'When an anonymous %s reaches a private or missing project (authenticate_non_get!), then 401 before the lookup',
    async (method, path) => {
      for (const target of [secret._id, 999_999]) {
        const response = await anonymous(method, path(target));
        expect(response.status).toBe(401);
        expect(await response.json()).toEqual({ message: '401 Unauthorized' });
      }
    },
  );

  it('When a method or path has no contract, then the catch-all 404 answers before any authentication', async () => {
    for (const [method, path] of [
      ['PATCH', `/api/v4/projects/${secret._id}/issues/1`],
      ['GET', `/api/v4/projects/${open._id}/issues/1/unknown`],
    ] as const) {
      const response = await anonymous(method, path);
      expect({ method, path, status: response.status, body: await response.json() }).toEqual({
        method,
        path,
        status: 404,
        body: { error: '404 Not Found' },
      });
    }
  });

  it('When an anonymous caller writes group epics, labels or milestones, then 401 before the lookup', async () => {
    for (const [method, path] of [
      ['POST', `/api/v4/groups/${privateGroup}/epics`],
      ['POST', `/api/v4/groups/${privateGroup}/labels`],
      ['DELETE', `/api/v4/groups/${privateGroup}/labels/1`],
      ['PUT', `/api/v4/groups/${privateGroup}/milestones/1`],
      ['POST', '/api/v4/groups/no-such-group/milestones'],
      ['GET', '/api/v4/registry/repositories/5'],
    ] as const) {
      const response = await anonymous(method, path);
      expect({ method, path, status: response.status }).toEqual({ method, path, status: 401 });
    }
    expect((await anonymous('GET', `/api/v4/groups/${privateGroup}/labels`)).status).toBe(404);
  });

  it('When an anonymous caller reads a private project, then 404 as before; a public one is forwarded', async () => {
    expect((await anonymous('GET', `/api/v4/projects/${secret._id}/issues`)).status).toBe(404);
    expect((await anonymous('GET', `/api/v4/groups/${privateGroup}/epics`)).status).toBe(404);
    const body = (await (await anonymous('GET', `/api/v4/projects/${open._id}/issues`)).json()) as Echo;
    expect(body.ctx.principal).toBeNull();
  });

  it('When an anonymous caller writes issues of a public project, then 401 too; with a token it is forwarded', async () => {
    expect((await anonymous('POST', `/api/v4/projects/${open._id}/issues`)).status).toBe(401);
    const signed = await gw.call(`/api/v4/projects/${open._id}/issues`, { method: 'POST', body: '{}' });
    expect(((await signed.json()) as Echo).method).toBe('POST');
  });

  it('When snippets, commits or the registry are written anonymously, then the project is looked up first (404 when private)', async () => {
    for (const path of [
      `/api/v4/projects/${secret._id}/snippets`,
      `/api/v4/projects/${secret._id}/repository/commits`,
    ]) {
      expect((await anonymous('POST', path)).status).toBe(404);
    }
    expect((await anonymous('DELETE', `/api/v4/projects/${secret._id}/registry/repositories/1`)).status).toBe(
      404,
    );
    // On a public project the service decides (GitLab: authenticate! or authorize! after the lookup).
    const forwarded = await anonymous('POST', `/api/v4/projects/${open._id}/snippets`);
    expect(((await forwarded.json()) as Echo).service).toBe('discussions');
  });
});

describe('gateway identity revisions in the signed context', () => {
  let gw: GatewayHarness;
  let project: ProjectDoc;

  beforeAll(async () => {
    gw = await startGatewayHarness();
    project = await makeProject(gw.models, await makeGroup(gw.models, { visibility: 'public' }), {
      visibility: 'public',
    });
  });
  afterAll(() => gw.close());

  const revisionOf = async (token: string | null) => {
    const response = await gw.call(`/api/v4/projects/${project._id}/events`, { token });
    return ((await response.json()) as Echo).ctx.identityRevision!;
  };
  const api = (method: string, path: string, body?: unknown) =>
    gw.call(`/api/v4${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it("When a user's membership is added, changed or removed, then their next request carries a newer user revision", async () => {
    const user = await makeUser(gw.models);
    const other = await makeUser(gw.models);
    const start = await revisionOf(user.token);
    expect(start.user).toBe(0);
    expect(
      (await api('POST', `/projects/${project._id}/members`, { user_id: user.id, access_level: 30 })).status,
    ).toBe(201);
    const added = await revisionOf(user.token);
    expect(added.user).toBeGreaterThan(0);
    expect((await revisionOf(other.token)).user).toBe(0);
    expect(
      (await api('PUT', `/projects/${project._id}/members/${user.id}`, { access_level: 20 })).status,
    ).toBe(200);
    const changed = await revisionOf(user.token);
    expect(changed.user).toBeGreaterThan(added.user);
    expect((await api('DELETE', `/projects/${project._id}/members/${user.id}`)).status).toBe(204);
    const removed = await revisionOf(user.token);
    expect(removed.user).toBeGreaterThan(changed.user);
    expect(removed.visibility).toBe(start.visibility);
  });

  it('When a project becomes less visible, then the next requests carry a newer visibility revision; other edits do not', async () => {
    const before = await revisionOf(null);
    expect((await api('PUT', `/projects/${project._id}`, { description: 'renamed only' })).status).toBe(200);
    expect((await revisionOf(null)).visibility).toBe(before.visibility);
    // A member of the project sees it after it turns private.
    const user = await makeUser(gw.models);
    await addMember(gw.models, { kind: 'project', id: project._id }, user.id, 30);
    expect((await api('PUT', `/projects/${project._id}`, { visibility: 'private' })).status).toBe(200);
    expect((await revisionOf(user.token)).visibility).toBeGreaterThan(before.visibility);
  });
});

describe('gateway with a service down', () => {
  let gw: GatewayHarness;
  beforeAll(async () => {
    gw = await startGatewayHarness({ downServices: ['notifications'] });
  });
  afterAll(() => gw.close());

  it('When the owning service is unreachable, then 502 {"message":"502 Bad Gateway"}', async () => {
    const response = await gw.call('/api/v4/notification_settings');
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ message: '502 Bad Gateway' });
  });
});
