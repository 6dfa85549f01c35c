import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
// Only for its declarations of `req.id` and `req.log`, which the middleware below fills in.
import type {} from 'pino-http';

/**
 * GitLab takes a token in the query string too (`private_token`, `access_token`, `job_token`); the URL is
 * logged on every line, so its value is replaced like the headers' (`logging.ts` redacts those).
 */
const SECRET_QUERY_KEYS = /([?&](?:private_token|access_token|job_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_KEYS, '$1[redacted]');
}

/** What every request line says: which request, how it ended, how long it took. */
function summary(req: IncomingMessage): { method?: string; url: string } {
  // Express rewrites `url` inside mounted routers; `originalUrl` is what the client sent.
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  return { method: req.method, url: redactUrl(url) };
}

/** The request with its headers (secrets redacted by the logger's `redact` paths). */
function detailed(req: IncomingMessage, res: ServerResponse) {
  return {
    req: {
      ...summary(req),
      headers: req.headers,
      remoteAddress: req.socket?.remoteAddress,
    },
    res: { statusCode: res.statusCode, headers: res.getHeaders() },
  };
}

/** Answers that keep their detail in the log: the client's and the server's errors. */
export const isErrorAnswer = (res: ServerResponse, err?: Error): boolean =>
  err !== undefined || res.statusCode >= 400;

/** Operational endpoints are polled by health checks and scrapers every few seconds: not logged. */
const isOperational = (url: string | undefined): boolean =>
  url === '/metrics' || (url ?? '').startsWith('/-/');

type Next = (err?: unknown) => void;

/**
 * One line per request, in the shape pino-http wrote it (its `quietReqLogger` form): `request completed`
 * (or `request aborted`) at info, `request errored` at error for a 5xx or a failed response, each bound to
 * `reqId`. A successful answer is logged as method, URL, status and time, without headers (at 2 KB a line,
 * headers were most of the log's growth); `LOG_LEVEL=debug` adds them back. An error answer (4xx, 5xx or a
 * failed response) keeps the request's and response's headers, secrets redacted. Lines a handler writes
 * through `req.log` carry only the request id, not the request.
 *
 * Written here rather than configured on pino-http: pino-http binds the whole request to a child logger on
 * every request even when no line uses it, which serialised (and redacted) the IncomingMessage each time —
 * about a third of a service's CPU per request on a small GET. Here nothing is serialised unless a line is
 * written; `req.log` is a child logger bound to the request id only.
 */
export function requestLogging(
  logger: Logger,
  genReqId: (req: IncomingMessage, res: ServerResponse) => string,
): (req: IncomingMessage, res: ServerResponse, next: Next) => void {
  return (req, res, next) => {
    const startedAt = Date.now();
    req.id ||= genReqId(req, res);
    // A plain property: a lazy getter defined on each request (Object.defineProperty) cost more than this
    // child logger, and left every request object in a shape of its own.
    req.log = logger.child({ reqId: req.id });

    const onComplete = (err?: Error): void => {
      res.removeListener('close', onComplete);
      res.removeListener('finish', onComplete);
      res.removeListener('error', onComplete);
      const failed = err ?? res.err;
      const level = err !== undefined || res.statusCode >= 500 ? 'error' : 'info';
      // The line's objects are built only when its level is on (LOG_LEVEL=warn writes no request lines).
      if (!logger.isLevelEnabled(level)) return;
      const responseTime = Date.now() - startedAt;
      if (failed || res.statusCode >= 500) {
        const error = failed ?? new Error(`failed with status code ${res.statusCode}`);
        req.log[level]({ ...detailed(req, res), err: error, responseTime }, 'request errored');
        return;
      }
      const line =
        isErrorAnswer(res) || logger.isLevelEnabled('debug')
          ? { ...detailed(req, res), responseTime }
          : { req: summary(req), res: { statusCode: res.statusCode }, responseTime };
      const ended = !req.readableAborted && res.writableEnded;
      req.log[level](line, ended ? 'request completed' : 'request aborted');
    };
    if (!isOperational(req.url)) {
      res.on('close', onComplete);
      res.on('finish', onComplete);
    }
    res.on('error', onComplete);
    next();
  };
}
