import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { answerOversizedRequests } from './request-line';

/** Sends a raw request and reads the whole answer until the server closes the connection. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
  });
}

describe('requests too large for the HTTP parser', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    answerOversizedRequests(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('When the request line alone is larger than the parser takes (100 KB), then 414 with a JSON body', async () => {
    const answer = await rawExchange(port, `GET /?q=${'x'.repeat(100_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 414 URI Too Long');
    expect(answer.endsWith('{"message":"414 Request-URI Too Large"}')).toBe(true);
  });

  it('When the oversized request comes on a kept-alive connection after an answered one, then still 414', async () => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('GET / HTTP/1.1\r\nHost: a\r\n\r\n');
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (Buffer.concat(received).toString('latin1').includes('ok')) resolve();
        else socket.once('data', check);
      };
      check();
    });
    socket.write(`GET /?q=${'x'.repeat(100_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    await new Promise<void>((resolve) => socket.once('end', () => resolve()));
    const answers = Buffer.concat(received).toString('latin1');
    expect(answers).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(answers).toContain('HTTP/1.1 414 URI Too Long');
  });

  it('When the request line is short but the headers are too large, then 431 as Node answers', async () => {
    const answer = await rawExchange(
      port,
      `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'y'.repeat(100_000)}\r\n\r\n`,
    );
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
  });

  it('When the request does not parse at all, then 400', async () => {
    const answer = await rawExchange(port, 'NOT HTTP AT ALL\r\n\r\n');
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
  });
});
