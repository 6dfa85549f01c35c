import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { INTERNAL_CONTEXT_HEADER } from '@gl/contracts';
import { verifyContext } from '@gl/service-kit';
import { httpDiscussionsSource } from './discussions-source';
import { testIssue, testProjectCopy } from './fake-discussions.test-helpers';
import { payloadProject } from './project';

const SECRET = 'hooks-test-secret-0123456789abcdef0123456789';

describe('Reading from discussions', () => {
  let server: Server;
  let url = '';
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ path: req.url ?? '', headers: req.headers });
      const verified = verifyContext(SECRET, req.headers[INTERNAL_CONTEXT_HEADER] as string | undefined);
      if (!verified.ok) {
        res.writeHead(401).end('{"message":"401 Unauthorized"}');
      } else if (req.url?.startsWith('/api/v4/projects/42/issues/7')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(testIssue(42, 7)));
      } else if (req.url?.startsWith('/api/v4/projects/42/issues/8')) {
        res.writeHead(404).end('{"message":"404 Issue Not Found"}');
      } else {
        res.writeHead(500).end('{"message":"500 Internal Server Error"}');
      }
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const project = payloadProject(42, testProjectCopy());

  it('When an issue is read, then the request carries a context signed for an administrator of the project, asking for the hook attributes', async () => {
    const source = httpDiscussionsSource({
      discussionsUrl: url,
      externalUrl: 'http://gl.test',
      contextSecret: SECRET,
    });
    expect(await source.issue(project, 7)).toMatchObject({ iid: 7, project_id: 42 });
    const [request] = seen;
    expect(request!.path).toBe('/api/v4/projects/42/issues/7?with_labels_details=true');
    const verified = verifyContext(SECRET, request!.headers[INTERNAL_CONTEXT_HEADER] as string);
    expect(verified).toMatchObject({
      ok: true,
      context: {
        externalUrl: 'http://gl.test',
        hookAttributes: true,
        principal: { isAdmin: true },
        namespace: {
          kind: 'project',
          id: 42,
          fullPath: 'group/project-42',
          webUrl: 'http://gl.test/group/project-42',
        },
      },
    });
  });

  it('When the project copy has its feature levels, then they are signed (discussions reads no copy for its gate); without them none are', async () => {
    const source = httpDiscussionsSource({
      discussionsUrl: url,
      externalUrl: 'http://gl.test',
      contextSecret: SECRET,
    });
    const withFeatures = payloadProject(
      42,
      testProjectCopy({ features: { issues: 'private', merge_requests: 'disabled' } }),
    );
    seen.length = 0;
    await source.issue(withFeatures, 7);
    await source.issue(project, 7);
    const namespaces = seen.map((request) => {
      const verified = verifyContext(SECRET, request.headers[INTERNAL_CONTEXT_HEADER] as string);
      return verified.ok ? verified.context.namespace : undefined;
    });
    expect(namespaces[0]?.features).toEqual({ issues: 'private', merge_requests: 'disabled' });
    expect(namespaces[1]).not.toHaveProperty('features');
  });

  it('When the object is gone, then it reads as null; when discussions fails, then the read throws', async () => {
    const source = httpDiscussionsSource({
      discussionsUrl: url,
      externalUrl: 'http://gl.test',
      contextSecret: SECRET,
    });
    expect(await source.issue(project, 8)).toBeNull();
    await expect(source.mergeRequest(project, 1)).rejects.toThrow(/answered 500/);
    const wrong = httpDiscussionsSource({
      discussionsUrl: url,
      externalUrl: 'http://gl.test',
      contextSecret: `${SECRET}-other`,
    });
    await expect(wrong.issue(project, 7)).rejects.toThrow(/answered 401/);
  });
});
