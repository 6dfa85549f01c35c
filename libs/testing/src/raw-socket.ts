import { connect, type Socket } from 'node:net';

/** One HTTP/1.1 response as read off a socket. */
export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The whole body announced by Content-Length is in. */
  complete: boolean;
}

/** What a raw exchange saw: the interim responses (100 Continue), the final one, how the connection ended. */
export interface WireExchange {
  interim: number[];
  response: WireResponse;
  /** The server ended the connection cleanly (FIN), not with a reset, after answering. */
  closedByServer: boolean;
  reset: boolean;
}

/**
 * A client that writes HTTP bytes as given and reads the answer byte for byte, for what node:http and
 * fetch do not let a test control: when a body is sent after `Expect: 100-continue`, and a body that keeps
 * coming after the server has answered. `body` is written after the first interim response when the head
 * asks for 100-continue, else straight after the head; `bodyChunks` are written one by one while the
 * socket accepts them, and writing stops at the first error (a server that stopped reading). The exchange
 * ends when the connection does: a head that expects a kept-alive answer should say `Connection: close`.
 */
export function wireExchange(
  url: string,
  head: string,
  options: { body?: Buffer | string; bodyChunks?: Iterable<Buffer>; waitForContinue?: boolean } = {},
): Promise<WireExchange> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = Buffer.alloc(0);
    const interim: number[] = [];
    let bodySent = false;
    let reset = false;
    const sendBody = (): void => {
      if (bodySent) return;
      bodySent = true;
      if (options.body !== undefined) socket.write(options.body);
      if (options.bodyChunks) void writeChunks(socket, options.bodyChunks);
    };
    socket.on('connect', () => {
      socket.write(head);
      if (!options.waitForContinue) sendBody();
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      for (;;) {
        const text = received.toString('latin1');
        const match = /^HTTP\/1\.1 1\d\d [^\r]*\r\n\r\n/.exec(text);
        if (!match) break;
        interim.push(Number(text.slice(9, 12)));
        received = received.subarray(match[0].length);
        sendBody();
      }
      // Like curl, the client is done once the final answer is in: its end lets a server that is still
      // draining a refused body close at once rather than after its linger.
      if (parseResponse(received)?.complete) socket.end();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') reset = true;
      else reject(err);
    });
    socket.on('close', () => {
      const response = parseResponse(received);
      if (!response) {
        reject(new Error(`no complete response (reset: ${reset}): ${received.toString('latin1')}`));
        return;
      }
      resolve({ interim, response, closedByServer: !reset, reset });
    });
  });
}

async function writeChunks(socket: Socket, chunks: Iterable<Buffer>): Promise<void> {
  for (const chunk of chunks) {
    if (socket.destroyed || !socket.writable) return;
    if (!socket.write(chunk)) {
      await new Promise<void>((resolve) => {
        socket.once('drain', resolve);
        socket.once('close', resolve);
      });
    }
  }
}

function parseResponse(bytes: Buffer): WireResponse | null {
  const text = bytes.toString('utf8');
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = text.slice(end + 4);
  const length = Number(headers['content-length'] ?? Number.NaN);
  const complete = Buffer.byteLength(body) >= length;
  return { status: Number(statusLine!.slice(9, 12)), headers, body, complete };
}

/** `count` chunks of `size` bytes of `fill`, made one at a time. */
export function* repeatedChunks(count: number, size = 64 * 1024, fill = 'x'): Iterable<Buffer> {
  const chunk = Buffer.alloc(size, fill);
  for (let i = 0; i < count; i += 1) yield chunk;
}
