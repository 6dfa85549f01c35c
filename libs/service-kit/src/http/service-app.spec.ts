import { Router } from 'express';
import { createLogger, createMetrics } from '../index';
import { listen, signedContextHeader, type TestServer } from '@gl/testing';
import { collectParams } from './body';
import { sendJson, sendNoContent } from './json';
import { readPageRequest, setPaginationHeaders } from './pagination';
import { createServiceHttpApp } from './service-app';

const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

describe('service HTTP shell', () => {
  let server: TestServer;
  const auth = signedContextHeader();

  beforeAll(async () => {
    const router = Router();
    router.all('/echo/:id', (req, res) => sendJson(res, 200, collectParams(req)));
    router.get('/items', (req, res) => {
      const page = readPageRequest(req.query);
      const total = 45;
      const items = Array.from(
        { length: Math.max(0, Math.min(page.perPage, total - page.skip)) },
        (_, i) => page.skip + i,
      );
      setPaginationHeaders(req, res, page, total);
      sendJson(res, 200, items);
    });
    router.delete('/things/:id', (_req, res) => sendNoContent(res));
    router.get('/boom', () => {
      throw new Error('kaboom');
    });
    const app = createServiceHttpApp({
      name: 'shell-test',
      logger: createLogger('shell-test', 'silent'),
      metrics: createMetrics('shell-test'),
      contextSecret: SECRET,
      readiness: async () => ({ mongo: true, nats: true }),
      apiRouters: [router],
      bodyLimit: 1024,
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}${path}`, {
      ...init,
      headers: { ...auth, ...(init.headers as Record<string, string>) },
    });

  it('When the internal context is missing or forged, then 401 and nothing else happens', async () => {
    const missing = await fetch(`${server.url}/api/v4/echo/1`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ message: '401 Unauthorized' });
    const forged = await fetch(`${server.url}/api/v4/echo/1`, {
      headers: signedContextHeader({}, 'x'.repeat(40)),
    });
    expect(forged.status).toBe(401);
    const unknownPath = await fetch(`${server.url}/api/v4/nothing-here`);
    expect(unknownPath.status).toBe(401);
  });

  it('When answering JSON, then the content type is exactly application/json', async () => {
    const response = await call('/api/v4/echo/1');
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('When params arrive by path, query and body, then body beats query and path beats both', async () => {
    const response = await call('/api/v4/echo/7?id=99&a=query&b=query', {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ b: 'body', id: 55 }),
    });
    expect(await response.json()).toEqual({ id: '7', a: 'query', b: 'body' });
  });

  it('When the body is form or multipart with bracketed keys, then it nests', async () => {
    const form = await call('/api/v4/echo/1', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'position[base_sha]=abc&labels[]=x',
    });
    expect(await form.json()).toMatchObject({ position: { base_sha: 'abc' }, labels: ['x'] });
    const multipart = new FormData();
    multipart.append('position[head_sha]', 'def');
    multipart.append('body', 'hello');
    const multi = await call('/api/v4/echo/1', { method: 'POST', body: multipart });
    expect(await multi.json()).toMatchObject({ position: { head_sha: 'def' }, body: 'hello' });
  });

  it("When JSON is malformed, then 400 with Grape's message", async () => {
    const response = await call('/api/v4/echo/1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'message body does not match declared format' });
  });

  it('When a DELETE carries an empty JSON body, then it is accepted (python-gitlab)', async () => {
    const response = await call('/api/v4/things/3', {
      method: 'DELETE',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
  });

  it('When the body is over the limit, then 413', async () => {
    const response = await call('/api/v4/echo/1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ big: 'x'.repeat(5000) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: '413 Request Entity Too Large' });
  });

  it("When a handler throws something unknown, then 500 with GitLab's body", async () => {
    const response = await call('/api/v4/boom');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: '500 Internal Server Error' });
  });

  describe('pagination', () => {
    it('When on a middle page, then headers and Link (prev, next, first, last) carry every original param', async () => {
      const response = await call('/api/v4/items?page=2&per_page=10&sort=asc');
      expect(await response.json()).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
      expect(response.headers.get('x-page')).toBe('2');
      expect(response.headers.get('x-per-page')).toBe('10');
      expect(response.headers.get('x-next-page')).toBe('3');
      expect(response.headers.get('x-prev-page')).toBe('1');
      expect(response.headers.get('x-total')).toBe('45');
      expect(response.headers.get('x-total-pages')).toBe('5');
      const host = new URL(server.url).host;
      expect(response.headers.get('link')).toBe(
        [
          `<http://${host}/api/v4/items?sort=asc&page=1&per_page=10>; rel="prev"`,
          `<http://${host}/api/v4/items?sort=asc&page=3&per_page=10>; rel="next"`,
          `<http://${host}/api/v4/items?sort=asc&page=1&per_page=10>; rel="first"`,
          `<http://${host}/api/v4/items?sort=asc&page=5&per_page=10>; rel="last"`,
        ].join(', '),
      );
    });

    it('When on the first and last pages, then prev and next are empty strings', async () => {
      const first = await call('/api/v4/items');
      expect(first.headers.get('x-prev-page')).toBe('');
      expect(first.headers.get('x-per-page')).toBe('20');
      expect(first.headers.get('link')).not.toMatch(/rel="prev"/);
      const last = await call('/api/v4/items?page=3');
      expect(last.headers.get('x-next-page')).toBe('');
      expect(last.headers.get('link')).not.toMatch(/rel="next"/);
    });

    it('When per_page is 0 or over 100, then 400 or capped at 100', async () => {
      const zero = await call('/api/v4/items?per_page=0');
      expect(zero.status).toBe(400);
      // Grape's except_values message (lib/api/pagination_params.rb: `except_values: [0]`).
      expect(await zero.json()).toEqual({ error: 'per_page has a value not allowed' });
      const big = await call('/api/v4/items?per_page=500');
      expect(big.headers.get('x-per-page')).toBe('100');
    });

    it('When the page is past the end, then an empty array and no prev/next', async () => {
      const response = await call('/api/v4/items?page=9');
      expect(await response.json()).toEqual([]);
      expect(response.headers.get('x-prev-page')).toBe('');
      expect(response.headers.get('x-next-page')).toBe('');
      expect(response.headers.get('x-total-pages')).toBe('3');
    });
  });

  it('When asked for health, readiness and metrics, then they answer without a context', async () => {
    expect((await fetch(`${server.url}/-/health`)).status).toBe(200);
    expect(await (await fetch(`${server.url}/-/readiness`)).json()).toMatchObject({ status: 'ok' });
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toMatch(/http_request_duration_seconds_bucket/);
  });
});
