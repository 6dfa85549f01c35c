import { request as httpRequest } from 'node:http';
import { Router } from 'express';
import { listen, rawRequest as raw, signedContextHeader, type TestServer } from '@gl/testing';
import { createLogger, createMetrics } from '../index';
import { collectParams } from './body';
import { sendJson } from './json';
import { readPageRequest, setPaginationHeaders } from './pagination';
import { createServiceHttpApp } from './service-app';

const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

const BAD_REQUEST = { status: 400, contentType: 'text/plain', body: 'Bad Request' };

describe('service HTTP shell: bad input is a 4xx', () => {
  let server: TestServer;
  const handled: string[] = [];
  const context = signedContextHeader({}, SECRET);

  beforeAll(async () => {
    const router = Router();
    router.all('/echo/:id', (req, res) => {
      handled.push(req.originalUrl);
      sendJson(res, 200, collectParams(req));
    });
    router.get('/items', (req, res) => {
      const page = readPageRequest(req.query);
      setPaginationHeaders(req, res, page, 100);
      sendJson(res, 200, []);
    });
    server = await listen(
      createServiceHttpApp({
        name: 'bad-input-test',
        logger: createLogger('bad-input-test', 'silent'),
        metrics: createMetrics('bad-input-test'),
        contextSecret: SECRET,
        readiness: async () => ({ ok: true }),
        apiRouters: [router],
      }),
    );
  });
  afterAll(() => server.close());
  beforeEach(() => {
    handled.length = 0;
  });

  const call = (path: string, options: Parameters<typeof raw>[2] = {}) =>
    raw(server.url, path, { ...options, headers: { ...context, ...options.headers } });

  it.each([
    ['invalid UTF-8', '/api/v4/echo/%FF'],
    ['an overlong encoding', '/api/v4/echo/%C0%AE'],
    ['a lone percent sign', '/api/v4/echo/%'],
    ['a percent sign without hex digits', '/api/v4/echo/%ZZ'],
    ['an encoded NUL byte', '/api/v4/echo/a%00b'],
  ])('When a path segment holds %s, then 400 "Bad Request" and no handler runs', async (_what, path) => {
    expect(await call(path)).toEqual(BAD_REQUEST);
    expect(handled).toEqual([]);
  });

  it.each([
    ['a NUL byte', 'search=%00'],
    ['invalid UTF-8', 'search=%FF'],
    ['a broken escape', 'search=%ZZ'],
    ['a NUL byte in a nested value', 'filter[name]=a%00'],
  ])('When the query holds %s, then 400 "Bad Request"', async (_what, query) => {
    expect(await call(`/api/v4/echo/1?${query}`)).toEqual(BAD_REQUEST);
    expect(handled).toEqual([]);
  });

  it('When a NUL byte is deeper than GitLab looks (three levels), then it is not refused', async () => {
    const answer = await call('/api/v4/echo/1?a[b][c][d]=x%00');
    expect(answer.status).toBe(200);
  });

  it('When the Authorization header is not UTF-8 or holds a NUL, then 400 "Bad Request"', async () => {
    const notUtf8 = Buffer.from([0x42, 0x65, 0x61, 0x72, 0x65, 0x72, 0x20, 0xc3]).toString('latin1');
    expect(await call('/api/v4/echo/1', { headers: { authorization: notUtf8 } })).toEqual(BAD_REQUEST);
    const basicNul = `Basic ${Buffer.from('user:pa\u0000ss').toString('base64')}`;
    expect(await call('/api/v4/echo/1', { headers: { authorization: basicNul } })).toEqual(BAD_REQUEST);
    const fine = `Basic ${Buffer.from('user:RçKszEwéC5k').toString('base64')}`;
    expect((await call('/api/v4/echo/1', { headers: { authorization: fine } })).status).toBe(200);
  });

  it('When a valid UTF-8 path is percent-encoded, then it is decoded and served', async () => {
    const answer = await call('/api/v4/echo/caf%C3%A9');
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ id: 'café' });
  });

  describe('bodies', () => {
    const json = (body: Buffer | string) =>
      call('/api/v4/echo/1', { method: 'POST', headers: { 'content-type': 'application/json' }, body });

    it("When a JSON body is not UTF-8, then it is not JSON: 400 with Grape's message", async () => {
      const answer = await json(
        Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      );
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ error: 'message body does not match declared format' });
      expect(handled).toEqual([]);
    });

    it('When JSON nests deeper than 32, then 400 "Parameters nested too deeply", even 100,000 deep', async () => {
      const ok = await json(`{"a":${'['.repeat(31)}${']'.repeat(31)}}`);
      expect(ok.status).toBe(200);
      for (const depth of [33, 1000, 100_000]) {
        const answer = await json('['.repeat(depth) + ']'.repeat(depth));
        expect({ depth, status: answer.status, body: JSON.parse(answer.body) as unknown }).toEqual({
          depth,
          status: 400,
          body: { error: 'Parameters nested too deeply' },
        });
      }
    });

    it("When JSON arrays, hashes or the total are over GitLab's limits, then 400 with its message", async () => {
      const array = await json(JSON.stringify({ ids: new Array(50_001).fill(1) }));
      expect(JSON.parse(array.body)).toEqual({ error: 'Array parameter too large' });
      const hash = await json(
        JSON.stringify(Object.fromEntries(Array.from({ length: 50_001 }, (_, i) => [`k${i}`, 1]))),
      );
      expect(JSON.parse(hash.body)).toEqual({ error: 'Hash parameter too large' });
      const total = await json(
        JSON.stringify({ a: new Array(50_000).fill(1), b: new Array(50_000).fill(1) }),
      );
      expect(JSON.parse(total.body)).toEqual({ error: 'Too many total parameters' });
      expect(handled).toEqual([]);
    });

    it('When a body parameter holds a NUL byte, then 400 "Bad Request" (JSON, form and multipart)', async () => {
      expect(await json('{"name":"a\\u0000b"}')).toEqual(BAD_REQUEST);
      expect(await json('{"position":{"line_range":{"start":"\\u0000"}}}')).toEqual(BAD_REQUEST);
      const form = await call('/api/v4/echo/1', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'name=a%00b',
      });
      expect(form).toEqual(BAD_REQUEST);
      const multipart = await call('/api/v4/echo/1', {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: '--x\r\nContent-Disposition: form-data; name="title"\r\n\r\na\u0000b\r\n--x--\r\n',
      });
      expect(multipart).toEqual(BAD_REQUEST);
      expect(handled).toEqual([]);
    });

    it('When a JSON string holds a lone surrogate (not Unicode, it would read back as U+FFFD), then 400 "Bad Request"', async () => {
      for (const body of [
        '{"title":"\\ud800"}',
        '{"labels":["ok","x\\udfff"]}',
        '{"position":{"a":{"b":{"c":"\\udc00"}}}}',
        '{"\\ud800":"key"}',
      ]) {
        expect({ body, answer: await json(body) }).toEqual({ body, answer: BAD_REQUEST });
      }
      expect(handled).toEqual([]);
      const paired = await json('{"title":"\\ud83d\\ude00"}');
      expect(paired.status).toBe(200);
    });

    it('When a form body has a broken escape or invalid UTF-8, then 400 "Bad Request"', async () => {
      for (const body of ['name=%ZZ', 'name=%FF', 'name=%']) {
        const answer = await call('/api/v4/echo/1', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
        expect({ body, answer }).toEqual({ body, answer: BAD_REQUEST });
      }
    });

    it('When prototype keys arrive in JSON, then they are plain ignored parameters and nothing is polluted', async () => {
      const answer = await json(
        '{"__proto__":{"admin":true},"constructor":{"prototype":{"x":1}},"name":"n"}',
      );
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ name: 'n' });
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('When a JSON body is over 1 MiB but under the cap (a note of 1,000,001 characters), then it is read, not a 413', async () => {
      const answer = await json(JSON.stringify({ body: 'é'.repeat(1_000_001) }));
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.body) as { body: string }).body).toHaveLength(1_000_001);
    });
  });

  describe('request line length', () => {
    it('When the request line fits in 8 KiB, then a paginated answer repeats the query in its Link header', async () => {
      const query = `q=${'x'.repeat(8000)}`;
      const answer = await new Promise<{ status: number; link: string }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: new URL(server.url).port,
            path: `/api/v4/items?page=2&per_page=10&${query}`,
            headers: context,
            maxHeaderSize: 64 * 1024,
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
      expect(answer.link.split(query)).toHaveLength(5);
    });

    it('When the request line is over 8 KiB, then 414 with a JSON body', async () => {
      const answer = await call(`/api/v4/items?q=${'x'.repeat(9 * 1024)}`);
      expect(answer.status).toBe(414);
      expect(JSON.parse(answer.body)).toEqual({ message: '414 Request-URI Too Large' });
    });
  });
});
