import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { DEFAULT_BODY_LIMIT } from './body';
import { lingerThenClose } from './request-line';

/** Emitted on a request whose chunked body went over the limit, for whoever streams it onwards. */
export const BODY_LIMIT_EXCEEDED = 'body-limit-exceeded';

const TOO_LARGE_BODY = JSON.stringify({ message: '413 Request Entity Too Large' });

/** The body length the client declared; chunked bodies declare none (NaN compares false). */
function declaredLength(req: IncomingMessage): number {
  const raw = req.headers['content-length'];
  return raw === undefined ? Number.NaN : Number(raw);
}

/**
 * 413 with `Connection: close`, then the connection is closed after the client's unread bytes are drained
 * for a moment (nginx's lingering close). Keeping the connection alive after a refusal is what left
 * clients hanging: curl and Python stop sending a body once an error answer arrives and then reuse the
 * connection, so the server read their next request as the rest of the refused body.
 */
export function refuseOversizedBody(req: IncomingMessage, res: ServerResponse): void {
  if (res.headersSent) {
    req.socket.destroy();
    return;
  }
  res.shouldKeepAlive = false;
  res.writeHead(413, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(TOO_LARGE_BODY),
    Connection: 'close',
  });
  res.end(TOO_LARGE_BODY);
  lingerThenClose(req.socket);
}

/**
 * `Expect: 100-continue` answered at this hop: a body declared over the limit is refused before the client
 * sends it (curl then sends nothing), any other is invited with `100 Continue`. The expectation is then met,
 * so the header is dropped from the request: forwarded, it made http-proxy skip its `proxyReq` hook (it
 * cannot rewrite headers a 100-continue request has already sent, http-proxy lib/http-proxy/passes/
 * web-incoming.js), and the service saw the client's credentials without the gateway's signed context.
 */
export function answerExpectContinue(server: Server, limit = DEFAULT_BODY_LIMIT): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (declaredLength(req) > limit) {
      refuseOversizedBody(req, res);
      return;
    }
    delete req.headers.expect;
    res.writeContinue();
    server.emit('request', req, res);
  });
}

/**
 * Refuses a body over the limit before anything reads or forwards it. A declared length over the limit is
 * refused at once; a chunked body is counted as it passes (the gateway streams bodies to services without
 * reading them) and refused when the count goes over, so both end the same way, a 413 and a closed
 * connection, instead of a 502 when the service cut the upload short.
 */
export function limitRequestBody(limit = DEFAULT_BODY_LIMIT) {
  return (req: Request, res: Response, next: NextFunction): void => {
    // Whatever listener the server has, this hop has answered the expectation by now (Node sends
    // `100 Continue` itself when nothing listens for `checkContinue`).
    delete req.headers.expect;
    if (declaredLength(req) > limit) {
      refuseOversizedBody(req, res);
      return;
    }
    if (req.headers['transfer-encoding'] !== undefined) countChunkedBody(req, res, limit);
    next();
  };
}

function countChunkedBody(req: Request, res: Response, limit: number): void {
  let received = 0;
  const count = (chunk: Buffer): void => {
    received += chunk.length;
    if (received <= limit) return;
    req.off('data', count);
    req.unpipe();
    req.emit(BODY_LIMIT_EXCEEDED);
    refuseOversizedBody(req, res);
  };
  // Paused first, so that listening does not start the flow: the first reader (a body parser, or the
  // proxy's pipe) resumes the request later and every chunk reaches both it and this count.
  req.pause();
  req.on('data', count);
}
