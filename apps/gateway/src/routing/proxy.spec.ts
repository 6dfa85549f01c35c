import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createLogger } from '@gl/service-kit';
import { listen, type TestServer } from '@gl/testing';
import { createServiceProxy } from './proxy';

/** GET through the proxy, reading response headers of any size (fetch stops at 16 KiB). */
function get(url: string, path: string): Promise<{ status: number; link: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: new URL(url).port, path, maxHeaderSize: 256 * 1024 },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, link: res.headers.link as string | undefined }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('gateway proxy to a service', () => {
  let upstream: Server;
  let gateway: TestServer;

  beforeAll(async () => {
    // A service answering with a Link header as long as a paginated answer to an 8 KiB query (four URLs).
    upstream = createServer((req, res) => {
      const query = (req.url ?? '').split('?')[1] ?? '';
      res.setHeader(
        'Link',
        Array.from({ length: 4 }, (_, i) => `<http://x/items?${query}&page=${i}>`).join(', '),
      );
      res.end('[]');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const app = express();
    app.use((req, _res, next) => {
      req.id = 'proxy-test';
      next();
    });
    app.use(createServiceProxy(target, createLogger('proxy-test', 'silent')));
    gateway = await listen(app);
  });
  afterAll(async () => {
    await gateway.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  it('When the service answers with 33 KB of headers, then they pass through (it was a 502)', async () => {
    const query = `q=${'x'.repeat(8000)}`;
    const answer = await get(gateway.url, `/items?${query}`);
    expect(answer.status).toBe(200);
    expect(answer.link?.length).toBeGreaterThan(32_000);
    expect(answer.link?.split(query)).toHaveLength(5);
  });

  it('When the service answers with small headers, then nothing changes', async () => {
    const answer = await get(gateway.url, '/items?a=1');
    expect(answer).toEqual({
      status: 200,
      link: [0, 1, 2, 3].map((i) => `<http://x/items?a=1&page=${i}>`).join(', '),
    });
  });
});
