import express from 'express';
import { listen, type TestServer } from '@gl/testing';
import { createLogger } from './logging';
import { redactUrl, requestLogging } from './request-logging';

/** An app with the request log of every process, writing its lines into `lines`. */
async function serve(level: string): Promise<{ server: TestServer; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger('log-test', level, {
    write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const app = express();
  app.use(requestLogging(logger, () => 'req-1'));
  app.get('/ok', (req, res) => {
    req.log.info('handler line');
    res.json({ ok: true });
  });
  app.get('/missing', (_req, res) => res.status(404).json({ message: '404 Not Found' }));
  app.get('/boom', (_req, res) => res.status(500).json({ message: '500 Internal Server Error' }));
  app.get('/-/health', (_req, res) => res.json({ status: 'ok' }));
  return { server: await listen(app), lines };
}

const secretHeaders = { 'PRIVATE-TOKEN': 'glpat-secret-value', Authorization: 'Bearer abc', 'X-Custom': 'x' };

async function get(server: TestServer, path: string): Promise<void> {
  const response = await fetch(`${server.url}${path}`, { headers: secretHeaders });
  await response.arrayBuffer();
  // The line is written on 'finish', just after the body went out.
  await new Promise((r) => setTimeout(r, 20));
}

const completed = (lines: Record<string, unknown>[]) => lines.filter((l) => l.msg === 'request completed');

describe('request log', () => {
  it('When a request succeeds at level info, then one short line without headers', async () => {
    const { server, lines } = await serve('info');
    try {
      await get(server, '/ok?private_token=glpat-in-query&page=2');
      const [line, ...more] = completed(lines);
      expect(more).toHaveLength(0);
      expect(line).toMatchObject({
        level: 30,
        reqId: 'req-1',
        req: { method: 'GET', url: '/ok?private_token=[redacted]&page=2' },
        res: { statusCode: 200 },
      });
      expect(line!.req).not.toHaveProperty('headers');
      expect(line!.res).not.toHaveProperty('headers');
      expect(JSON.stringify(lines)).not.toContain('glpat-');
      // A handler's own line carries the request id, not the request.
      const handler = lines.find((l) => l.msg === 'handler line');
      expect(handler).toMatchObject({ reqId: 'req-1' });
      expect(handler).not.toHaveProperty('req');
      expect(JSON.stringify(line).length).toBeLessThan(300);
    } finally {
      await server.close();
    }
  });

  it('When the level is debug, then successful requests are logged with their headers, secrets redacted', async () => {
    const { server, lines } = await serve('debug');
    try {
      await get(server, '/ok');
      const [line] = completed(lines);
      expect(line).toMatchObject({
        req: { headers: { 'private-token': '[redacted]', authorization: '[redacted]', 'x-custom': 'x' } },
        res: { statusCode: 200 },
      });
      expect((line!.res as { headers: Record<string, string> }).headers['content-type']).toContain('json');
    } finally {
      await server.close();
    }
  });

  it('When a request fails, then its line keeps the headers (secrets redacted) and a 5xx is an error', async () => {
    const { server, lines } = await serve('info');
    try {
      await get(server, '/missing');
      await get(server, '/boom');
      const [missing, boom] = completed(lines).concat(lines.filter((l) => l.msg === 'request errored'));
      expect(missing).toMatchObject({
        level: 30,
        req: { headers: { 'private-token': '[redacted]', 'x-custom': 'x' } },
        res: { statusCode: 404 },
      });
      expect(boom).toMatchObject({
        level: 50,
        req: { url: '/boom', headers: { authorization: '[redacted]' } },
        res: { statusCode: 500 },
      });
      expect(JSON.stringify(lines)).not.toContain('glpat-secret-value');
    } finally {
      await server.close();
    }
  });

  it('When the level is warn, then only a 5xx writes its line (with its request id)', async () => {
    const { server, lines } = await serve('warn');
    try {
      await get(server, '/ok');
      await get(server, '/missing');
      await get(server, '/boom');
      expect(lines.map((l) => l.msg)).toEqual(['request errored']);
      expect(lines[0]).toMatchObject({ level: 50, reqId: 'req-1', res: { statusCode: 500 } });
    } finally {
      await server.close();
    }
  });

  it('When health checks poll, then nothing is logged', async () => {
    const { server, lines } = await serve('info');
    try {
      await get(server, '/-/health');
      expect(completed(lines)).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('redactUrl replaces token query parameters and leaves the rest', () => {
    expect(redactUrl('/api/v4/user?access_token=a&x=1&JOB_TOKEN=b')).toBe(
      '/api/v4/user?access_token=[redacted]&x=1&JOB_TOKEN=[redacted]',
    );
    expect(redactUrl('/api/v4/projects?search=private_token=x')).toBe(
      '/api/v4/projects?search=private_token=x',
    );
  });
});
