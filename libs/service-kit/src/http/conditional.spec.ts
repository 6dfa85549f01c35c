import express, { type Response } from 'express';
import { request as httpRequest } from 'node:http';
import { listen, type TestServer } from '@gl/testing';
import { ifNoneMatchMatches, jsonEntityTag } from './conditional';
import { sendJson } from './json';
import { readPageRequest, setPaginationHeaders } from './pagination';

const noHeaders: Response['getHeader'] = () => undefined;

describe('If-None-Match matching (RFC 9110 §13.1.2, weak comparison)', () => {
  const tag = 'W/"abc"';

  it('When the field holds the tag, weak or strong, alone or in a list, then it matches', () => {
    for (const field of ['W/"abc"', '"abc"', '"x", W/"abc"', 'W/"x",W/"abc" , "y"', ['"x"', 'W/"abc"']]) {
      expect({ field, matches: ifNoneMatchMatches(field, tag) }).toEqual({ field, matches: true });
    }
    expect(ifNoneMatchMatches('W/"abc"', '"abc"')).toBe(true);
  });

  it('When the field is `*`, then it matches any current tag', () => {
    expect(ifNoneMatchMatches('*', tag)).toBe(true);
    expect(ifNoneMatchMatches(' * ', tag)).toBe(true);
  });

  it('When the field is absent, empty, another tag, a prefix or unquoted, then it does not match', () => {
    for (const field of [undefined, '', '"abcd"', 'W/"ab"', 'abc', 'W/abc', '"ABC"', '"x", "y"']) {
      expect({ field, matches: ifNoneMatchMatches(field, tag) }).toEqual({ field, matches: false });
    }
  });
});

describe('JSON entity tags', () => {
  it('When the body, the status or a page header differs, then the tag differs; else it is the same', () => {
    const base = jsonEntityTag(200, noHeaders, '[1,2]');
    expect(base).toMatch(/^W\/"[\w-]{27}"$/);
    expect(jsonEntityTag(200, noHeaders, '[1,2]')).toBe(base);
    expect(jsonEntityTag(200, noHeaders, '[1,3]')).not.toBe(base);
    expect(jsonEntityTag(201, noHeaders, '[1,2]')).not.toBe(base);
    const withTotal =
      (total: string): Response['getHeader'] =>
      (name) =>
        name === 'x-total' ? total : undefined;
    expect(jsonEntityTag(200, withTotal('2'), '[1,2]')).not.toBe(base);
    expect(jsonEntityTag(200, withTotal('2'), '[1,2]')).not.toBe(jsonEntityTag(200, withTotal('3'), '[1,2]'));
  });
});

describe('conditional answers of sendJson', () => {
  let server: TestServer;

  beforeAll(async () => {
    const app = express();
    app.set('etag', false);
    app.get('/thing', (_req, res) => sendJson(res, 200, { id: 1, title: 'a' }));
    app.post('/thing', (_req, res) => sendJson(res, 201, { id: 1, title: 'a' }));
    app.put('/thing', (_req, res) => sendJson(res, 200, { id: 1, title: 'a' }));
    app.get('/missing', (_req, res) => sendJson(res, 404, { message: '404 Not Found' }));
    app.get('/items', (req, res) => {
      const page = readPageRequest(req.query);
      setPaginationHeaders(req, res, page, 5);
      sendJson(res, 200, [1]);
    });
    server = await listen(app);
  });
  afterAll(() => server.close());

  /** Raw HTTP, so that HEAD and 304 are seen exactly as sent (no client-side cache or body handling). */
  const call = (method: string, path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}${path}`, { method, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('When a GET has no If-None-Match, then 200 with the body and an ETag', async () => {
    const res = await call('GET', '/thing');
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"id":1,"title":"a"}');
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers.etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(res.headers['cache-control']).toBeUndefined();
  });

  it('When If-None-Match holds the current tag (weak, strong, in a list or `*`), then 304 with no body', async () => {
    const { headers } = await call('GET', '/thing');
    const tag = String(headers.etag);
    for (const field of [tag, tag.slice(2), `"other", ${tag}`, '*']) {
      const res = await call('GET', '/thing', { 'If-None-Match': field });
      expect({ field, status: res.status, body: res.body }).toEqual({ field, status: 304, body: '' });
      expect(res.headers.etag).toBe(tag);
      expect(res.headers['content-type']).toBeUndefined();
      expect(res.headers['content-length']).toBeUndefined();
    }
  });

  it('When If-None-Match holds another tag, then 200 with the body', async () => {
    const res = await call('GET', '/thing', { 'If-None-Match': 'W/"stale", "older"' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('{"id":1,"title":"a"}');
  });

  it('When the request is HEAD, then it is answered as GET: the same tag, and 304 on a match', async () => {
    const get = await call('GET', '/thing');
    const head = await call('HEAD', '/thing');
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(get.headers.etag);
    const matched = await call('HEAD', '/thing', { 'If-None-Match': String(get.headers.etag) });
    expect(matched.status).toBe(304);
  });

  it('When the method is not GET or HEAD, then no ETag and never 304', async () => {
    for (const method of ['POST', 'PUT']) {
      const res = await call(method, '/thing', { 'If-None-Match': '*' });
      expect({ method, status: res.status, etag: res.headers.etag }).toEqual({
        method,
        status: method === 'POST' ? 201 : 200,
        etag: undefined,
      });
      expect(res.body).toBe('{"id":1,"title":"a"}');
    }
  });

  it('When the answer is not 2xx, then no ETag and never 304', async () => {
    const res = await call('GET', '/missing', { 'If-None-Match': '*' });
    expect(res.status).toBe(404);
    expect(res.headers.etag).toBeUndefined();
    expect(res.body).toBe('{"message":"404 Not Found"}');
  });

  it('When the same body comes with other page headers, then the tag differs, and a 304 keeps them', async () => {
    const first = await call('GET', '/items?per_page=1&page=1');
    const second = await call('GET', '/items?per_page=1&page=2');
    expect(first.body).toBe(second.body);
    expect(first.headers.etag).not.toBe(second.headers.etag);
    const again = await call('GET', '/items?per_page=1&page=2', {
      'If-None-Match': String(second.headers.etag),
    });
    expect(again.status).toBe(304);
    expect(again.headers['x-next-page']).toBe('3');
    expect(again.headers.link).toBe(second.headers.link);
    const mismatched = await call('GET', '/items?per_page=1&page=1', {
      'If-None-Match': String(second.headers.etag),
    });
    expect(mismatched.status).toBe(200);
  });
});
