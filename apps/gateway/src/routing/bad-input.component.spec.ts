import { request as httpRequest } from 'node:http';
import { rawRequest as raw } from '@gl/testing';
import { startGatewayHarness, ROOT_TOKEN, type GatewayHarness } from '../testing/gateway.harness';
import { makeGroup, makeProject } from '../testing/identity.fixtures';

const BAD_REQUEST = { status: 400, contentType: 'text/plain', body: 'Bad Request' };

describe('gateway: malformed input is refused at the edge', () => {
  let gw: GatewayHarness;
  const auth = { 'PRIVATE-TOKEN': ROOT_TOKEN };

  beforeAll(async () => {
    gw = await startGatewayHarness();
    const group = await makeGroup(gw.models, { path: 'edge' });
    await makeProject(gw.models, group, { path: 'shop' });
  });
  afterAll(() => gw.close());

  it.each([
    '/api/v4/groups/%FF',
    '/api/v4/groups/%C0%AE',
    '/api/v4/groups/%',
    '/api/v4/groups/%FF/milestones',
    '/api/v4/projects/%FF/issues/1/notes',
    '/api/v4/users/%FF',
    '/api/v4/projects/edge%2Fshop%00',
  ])('When %s is requested (identity or forwarded), then 400 "Bad Request"', async (path) => {
    expect(await raw(gw.url, path, { headers: auth })).toEqual(BAD_REQUEST);
  });

  it.each(['/%ZZ/alerts/notify.json', '/edge/%FF/alerts/notify.json', '/%/prometheus/alerts/notify.json'])(
    'When an alert is posted to %s without any token, then 400 "Bad Request"',
    async (path) => {
      expect(await raw(gw.url, path, { method: 'POST', body: '{}' })).toEqual(BAD_REQUEST);
    },
  );

  it.each(['/api/v4/projects?search=%00', '/api/v4/groups?search=%00', '/api/v4/users?search=%FF'])(
    'When %s is listed, then 400 "Bad Request"',
    async (path) => {
      expect(await raw(gw.url, path, { headers: auth })).toEqual(BAD_REQUEST);
    },
  );

  it('When a forwarded request carries a NUL in its query, then the service is never reached', async () => {
    const answer = await raw(gw.url, '/api/v4/groups/edge/milestones?search=%00', { headers: auth });
    expect(answer).toEqual(BAD_REQUEST);
  });

  it('When the same valid path is well encoded, then it is served', async () => {
    const answer = await raw(gw.url, '/api/v4/projects/edge%2Fshop', { headers: auth });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ path_with_namespace: 'edge/shop' });
  });

  it('When a paginated list is asked with an 8 KB query, then it answers with the query in every Link', async () => {
    const query = `q=${'x'.repeat(8000)}`;
    const answer = await new Promise<{ status: number; link: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: new URL(gw.url).port,
          path: `/api/v4/projects?per_page=1&${query}`,
          headers: auth,
          maxHeaderSize: 256 * 1024,
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, link: String(res.headers.link) });
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(answer.status).toBe(200);
    expect(answer.link).toContain(query);
  });

  it.each([9 * 1024, 15 * 1024])(
    'When the request line is over 8 KiB (%d bytes of query), then 414, with or without a token',
    async (size) => {
      for (const headers of [auth, {}]) {
        const answer = await raw(gw.url, `/api/v4/projects?q=${'x'.repeat(size)}`, { headers });
        expect(answer.status).toBe(414);
        expect(JSON.parse(answer.body)).toEqual({ message: '414 Request-URI Too Large' });
      }
    },
  );
});
