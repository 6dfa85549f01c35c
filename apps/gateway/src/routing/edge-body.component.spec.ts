import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repeatedChunks, wireExchange } from '@gl/testing';
import { DEFAULT_BODY_LIMIT } from '@gl/service-kit';
import { startGatewayHarness, ROOT_TOKEN, type GatewayHarness } from '../testing/gateway.harness';
import { makeGroup, makeProject } from '../testing/identity.fixtures';

const TOO_LARGE = { message: '413 Request Entity Too Large' };
const OVER_LIMIT = DEFAULT_BODY_LIMIT + 1024 * 1024;

interface EchoBody {
  service: string;
  params: Record<string, unknown>;
  ctx: { principal: { id: number } | null };
  headers: { privateToken: string | null };
}

/** curl as users run it; `-w` appends the status and how many body bytes curl sent. */
function curl(args: string[]): Promise<{ body: string; status: number; uploaded: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('curl', ['-s', '-o', '-', '-w', '\n%{http_code} %{size_upload}', ...args]);
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const split = out.lastIndexOf('\n');
      const [status, uploaded] = out.slice(split + 1).split(' ');
      resolve({ body: out.slice(0, split), status: Number(status), uploaded: Number(uploaded) });
    });
  });
}

describe('gateway edge: Expect: 100-continue and bodies over the limit', () => {
  let gw: GatewayHarness;
  let projectPath: string;

  beforeAll(async () => {
    gw = await startGatewayHarness({ name: 'gateway-edge-body' });
    const group = await makeGroup(gw.models, { path: 'wire' });
    await makeProject(gw.models, group, { path: 'shop' });
    projectPath = 'wire%2Fshop';
  });
  afterAll(() => gw.close());

  it('When a forwarded request says Expect: 100-continue on a raw socket, then the service gets the signed context and no token', async () => {
    const body = JSON.stringify({ body: 'hello' });
    const exchange = await wireExchange(
      gw.url,
      [
        `POST /api/v4/projects/${projectPath}/issues/1/notes HTTP/1.1`,
        'Host: gitlab.example.test',
        `PRIVATE-TOKEN: ${ROOT_TOKEN}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Expect: 100-continue',
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
      { body, waitForContinue: true },
    );
    expect(exchange.interim).toEqual([100]);
    expect(exchange.response.status).toBe(200);
    const echo = JSON.parse(exchange.response.body) as EchoBody;
    expect(echo).toMatchObject({ service: 'discussions', params: { body: 'hello' } });
    expect(echo.ctx.principal?.id).toBe(1);
    expect(echo.headers.privateToken).toBeNull();
  });

  it('When curl sends Expect: 100-continue to a forwarded read, then it is answered as without it', async () => {
    const answer = await curl([
      '-H',
      `PRIVATE-TOKEN: ${ROOT_TOKEN}`,
      '-H',
      'Expect: 100-continue',
      '-H',
      'Content-Type: application/json',
      '-X',
      'GET',
      '--data-binary',
      '{}',
      `${gw.url}/api/v4/projects/${projectPath}/issues`,
    ]);
    expect(answer.status).toBe(200);
    expect((JSON.parse(answer.body) as EchoBody).ctx.principal?.id).toBe(1);
  });

  it('When curl uploads a body over the limit, then 413 comes before any of it is sent', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'edge-body-')), 'big.json');
    writeFileSync(file, Buffer.alloc(OVER_LIMIT, 'x'));
    // curl asks with Expect: 100-continue by itself for a body this large.
    const answer = await curl([
      '-H',
      `PRIVATE-TOKEN: ${ROOT_TOKEN}`,
      '-H',
      'Content-Type: application/json',
      '--data-binary',
      `@${file}`,
      `${gw.url}/api/v4/projects/${projectPath}/issues/1/notes`,
    ]);
    expect(answer).toEqual({ status: 413, body: JSON.stringify(TOO_LARGE), uploaded: 0 });
  });

  it('When a raw client declares a body over the limit with Expect: 100-continue, then 413 and no 100', async () => {
    const exchange = await wireExchange(
      gw.url,
      [
        `POST /api/v4/projects/${projectPath}/issues/1/notes HTTP/1.1`,
        'Host: x',
        `PRIVATE-TOKEN: ${ROOT_TOKEN}`,
        `Content-Length: ${OVER_LIMIT}`,
        'Expect: 100-continue',
        '',
        '',
      ].join('\r\n'),
      { bodyChunks: repeatedChunks(OVER_LIMIT / 65536), waitForContinue: true },
    );
    expect(exchange.interim).toEqual([]);
    expect(exchange.response.status).toBe(413);
    expect(JSON.parse(exchange.response.body)).toEqual(TOO_LARGE);
    expect(exchange.response.headers.connection).toBe('close');
  });

  it.each([
    ['a forwarded write', 'POST', '/api/v4/projects/wire%2Fshop/issues/1/notes'],
    ['a forwarded read', 'GET', '/api/v4/events'],
    ['an identity write', 'POST', '/api/v4/groups'],
  ])(
    'When %s declares a body over the limit and keeps sending it, then 413, Connection: close, and a clean close',
    async (_what, method, path) => {
      const exchange = await wireExchange(
        gw.url,
        [
          `${method} ${path} HTTP/1.1`,
          'Host: x',
          `PRIVATE-TOKEN: ${ROOT_TOKEN}`,
          'Content-Type: application/json',
          `Content-Length: ${OVER_LIMIT}`,
          '',
          '',
        ].join('\r\n'),
        { bodyChunks: repeatedChunks(OVER_LIMIT / 65536) },
      );
      expect(exchange.response.status).toBe(413);
      expect(exchange.response.headers.connection).toBe('close');
      expect(JSON.parse(exchange.response.body)).toEqual(TOO_LARGE);
    },
  );

  it.each([
    ['a forwarded write', '/api/v4/projects/wire%2Fshop/issues/1/notes'],
    ['an identity write', '/api/v4/groups'],
  ])(
    'When %s streams a chunked body past the limit, then 413 and the connection closes',
    async (_w, path) => {
      const chunk = (data: Buffer): Buffer =>
        Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
      function* body(): Iterable<Buffer> {
        for (const data of repeatedChunks(OVER_LIMIT / 65536)) yield chunk(data);
        yield Buffer.from('0\r\n\r\n');
      }
      const exchange = await wireExchange(
        gw.url,
        [
          `POST ${path} HTTP/1.1`,
          'Host: x',
          `PRIVATE-TOKEN: ${ROOT_TOKEN}`,
          'Content-Type: application/json',
          'Transfer-Encoding: chunked',
          '',
          '',
        ].join('\r\n'),
        { bodyChunks: body() },
      );
      expect(exchange.response.status).toBe(413);
      expect(exchange.response.headers.connection).toBe('close');
      expect(JSON.parse(exchange.response.body)).toEqual(TOO_LARGE);
    },
  );

  it('When a 200 KB request follows refused uploads, then it is answered', async () => {
    const body = JSON.stringify({ body: 'b'.repeat(200_000) });
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: new URL(gw.url).port,
          method: 'POST',
          path: `/api/v4/projects/${projectPath}/issues/1/notes`,
          headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);
  });
});
