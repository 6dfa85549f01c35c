import { Router } from 'express';
import { listen, signedContextHeader, type TestServer } from '@gl/testing';
import type { NamespaceContext } from '@gl/contracts';
import { createLogger, createMetrics } from '../index';
import { sendJson } from './json';
import { route } from './route';
import { createServiceHttpApp } from './service-app';

const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

const project: NamespaceContext = {
  kind: 'project',
  id: 7,
  name: 'p',
  path: 'p',
  fullPath: 'top/sub/p',
  fullName: 'Top / Sub / p',
  visibility: 'private',
  webUrl: 'http://localhost/top/sub/p',
  ancestorGroupIds: [1, 2],
  accessLevel: 30,
};

describe('version bumps after writes', () => {
  let server: TestServer;
  const bumped: string[][] = [];
  let failBumps = false;

  beforeAll(async () => {
    const router = Router();
    router.all('/answer/:status', (req, res) => sendJson(res, Number(req.params.status), { ok: true }));
    // A write GitLab lets reach other projects (WRITES_REACHING_ACROSS), routed by its contract.
    route(
      router,
      {
        method: 'POST',
        path: '/projects/{id}/issues/{issue_iid}/links',
        service: 'discussions',
        operationId: 'createProjectIssueLink',
        summary: 'link',
        tags: [],
        auth: 'token',
        response: { status: 201, description: 'linked' },
      },
      async ({ res }) => sendJson(res, 201, { linked: true }),
    );
    const app = createServiceHttpApp({
      name: 'discussions',
      logger: createLogger('bumps-test', 'silent'),
      metrics: createMetrics('bumps-test'),
      contextSecret: SECRET,
      readiness: async () => ({}),
      apiRouters: [router],
      versions: {
        bump: async (keys) => {
          if (failBumps) throw new Error('bucket unreachable');
          bumped.push(keys);
        },
      },
    });
    server = await listen(app);
  });
  afterAll(() => server.close());
  beforeEach(() => {
    bumped.length = 0;
    failBumps = false;
  });

  const call = (method: string, path: string, namespace: NamespaceContext | null = project) =>
    fetch(`${server.url}/api/v4${path}`, {
      method,
      headers: signedContextHeader({ namespace }, SECRET),
    });

  it('When a write to a project succeeds, then the project’s key and its groups’ keys are bumped before the answer', async () => {
    const res = await call('POST', '/answer/201');
    expect(res.status).toBe(201);
    expect(bumped).toEqual([['discussions.p.7', 'discussions.g.1', 'discussions.g.2']]);
  });

  it('When a read, or a refused write, is answered, then nothing is bumped', async () => {
    expect((await call('GET', '/answer/200')).status).toBe(200);
    expect((await call('POST', '/answer/400')).status).toBe(400);
    expect((await call('DELETE', '/answer/404')).status).toBe(404);
    expect(bumped).toEqual([]);
  });

  it('When a write fails, reaches other projects, or has no project, then the service’s whole key is bumped', async () => {
    await call('PUT', '/answer/500');
    await call('POST', '/projects/7/issues/1/links');
    await call('POST', '/answer/201', { ...project, kind: 'group', ancestorGroupIds: [] });
    await call('POST', '/answer/201', null);
    expect(bumped).toEqual([
      ['discussions.all'],
      ['discussions.all'],
      ['discussions.all'],
      ['discussions.all'],
    ]);
  });

  it('When the bucket cannot be reached, then the stored write is still answered', async () => {
    failBumps = true;
    const res = await call('POST', '/answer/201');
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ok: true });
  });
});
