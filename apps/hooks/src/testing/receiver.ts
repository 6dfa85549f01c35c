import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got: its path, headers and JSON body (every hook payload is JSON). */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

/** How the receiver answers a request: a status after an optional delay, or a socket closed unanswered. */
export type ReceiverAnswer = { status: number; delayMs?: number } | 'hang-up';

export interface Receiver {
  /** `http://127.0.0.1:<port>`, the only kind of address the tests send to. */
  url: string;
  port: number;
  /** Every request, in arrival order; tests empty it between cases. */
  received: ReceivedRequest[];
  /** What each request gets; 200 until a test says otherwise (`reset` puts that back). */
  answer: (request: ReceivedRequest) => ReceiverAnswer;
  /** The most requests to `path` that were open at once: a hook's are sent one at a time. */
  maxInFlightOf(path: string): number;
  /** Forgets the requests and answers 200 again. */
  reset(): void;
  close(): Promise<void>;
}

const OK: ReceiverAnswer = { status: 200 };

/**
 * A webhook receiver on 127.0.0.1 for the component tests. It answers `ok` to a 200 and `boom` otherwise,
 * as text with an `x-receiver: test` header, so a test can find the answer again in a delivery's log.
 */
export async function startReceiver(): Promise<Receiver> {
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? '';
    inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
    maxInFlight.set(path, Math.max(maxInFlight.get(path) ?? 0, inFlight.get(path)!));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request: ReceivedRequest = {
        path,
        headers: req.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>,
      };
      receiver.received.push(request);
      const answer = receiver.answer(request);
      const done = () => inFlight.set(path, inFlight.get(path)! - 1);
      if (answer === 'hang-up') {
        done();
        req.socket.destroy();
        return;
      }
      setTimeout(() => {
        done();
        res.writeHead(answer.status, { 'content-type': 'text/plain', 'x-receiver': 'test' });
        res.end(answer.status === 200 ? 'ok' : 'boom');
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}`,
    port,
    received: [],
    answer: () => OK,
    maxInFlightOf: (path) => maxInFlight.get(path) ?? 0,
    reset() {
      receiver.received.length = 0;
      receiver.answer = () => OK;
    },
    close() {
      // A sender's keep-alive connection would hold close() open until it times out.
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return receiver;
}

/** The issue a payload is about: a note's `issue`, else the issue or merge request itself. */
export function iidOf(request: ReceivedRequest): number | undefined {
  const body = request.body as { issue?: { iid?: number }; object_attributes?: { iid?: number } };
  return body.issue?.iid ?? body.object_attributes?.iid;
}
