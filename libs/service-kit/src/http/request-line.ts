import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NextFunction, Request, Response } from 'express';
import { sendJson } from './json';

/**
 * GitLab sits behind nginx, and Omnibus keeps nginx's default `large_client_header_buffers 4 8k`
 * (files/gitlab-cookbooks/gitlab/templates/default/nginx.conf.erb sets no other): a request line that does
 * not fit in one 8 KiB buffer is refused with 414 before GitLab sees it. The same cap here keeps what a
 * request can make us repeat bounded: every paginated answer copies the query string into each `Link`
 * URL (four of them), which must still fit through the gateway's hop to a service.
 */
export const MAX_REQUEST_LINE_BYTES = 8 * 1024;

const TOO_LONG_BODY = { message: '414 Request-URI Too Large' };

export function requestLineBytes(req: Request): number {
  return Buffer.byteLength(
    `${req.method} ${req.originalUrl ?? req.url} HTTP/${req.httpVersion}\r\n`,
    'latin1',
  );
}

/** 414 for request lines nginx would not have taken. */
export function limitRequestLine() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (requestLineBytes(req) > MAX_REQUEST_LINE_BYTES) {
      sendJson(res, 414, TOO_LONG_BODY);
      return;
    }
    next();
  };
}

function rawResponse(status: number, reason: string, body?: string): string {
  const headers = [`HTTP/1.1 ${status} ${reason}`, 'Connection: close'];
  if (body === undefined) return [...headers, 'Content-Length: 0', '', ''].join('\r\n');
  return [
    ...headers,
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    '',
    body,
  ].join('\r\n');
}

/**
 * Requests too large for Node's header parser never reach Express; Node would answer a bare 431 whatever
 * was too long. A request line longer than the cap is a 414 as above (nginx's answer); anything else keeps
 * Node's own answer (431 for too many or too large headers, 408 on timeout, else 400).
 */
export function answerOversizedRequests(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    // Node's own rule: answer only if no response on this connection has started (a kept-alive socket has
    // written earlier answers, so its byte count says nothing).
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
    if (!socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_HEADER_OVERFLOW') {
      const raw = err.rawPacket ?? Buffer.alloc(0);
      const lineEnd = raw.indexOf('\r\n');
      const lineBytes = lineEnd < 0 ? raw.length : lineEnd + 2;
      answerAndClose(
        socket,
        lineBytes > MAX_REQUEST_LINE_BYTES
          ? rawResponse(414, 'URI Too Long', JSON.stringify(TOO_LONG_BODY))
          : rawResponse(431, 'Request Header Fields Too Large'),
      );
    } else if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      answerAndClose(socket, rawResponse(408, 'Request Timeout'));
    } else {
      answerAndClose(socket, rawResponse(400, 'Bad Request'));
    }
  });
}

/** How long the rest of a refused request is read and dropped before the connection is cut. */
const LINGER_MS = 2_000;

/**
 * Keeps reading what the client is still sending until it closes, for at most LINGER_MS, after the answer
 * (nginx's lingering close): closing a socket with unread data resets the connection, and the client would
 * see ECONNRESET instead of the answer. Node's server would destroy the socket as soon as a `Connection:
 * close` answer is written (`destroySoon`), so for this socket it only ends its side.
 */
export function lingerThenClose(socket: Socket): void {
  socket.destroySoon = () => {
    socket.end();
  };
  socket.on('data', () => undefined);
  socket.resume();
  socket.setTimeout(LINGER_MS, () => socket.destroy());
}

/** Answers with a raw response (the HTTP parser has given up on this connection), then closes as above. */
function answerAndClose(socket: Socket, response: string): void {
  lingerThenClose(socket);
  socket.end(response);
}
