import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Options } from 'pino-http';

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

/**
 * pino-http options for one line per request. A successful answer is logged as method, URL, status and
 * time, without headers (at 2 KB a line, headers were most of the log's growth); `LOG_LEVEL=debug` adds
 * them back. An error answer (4xx, 5xx or a thrown error) keeps the request's and response's headers,
 * secrets redacted. Lines a handler writes through `req.log` carry only the request id, not the request.
 */
export function requestLogOptions(
  logger: Logger,
  genReqId: NonNullable<Options['genReqId']>,
): Options<IncomingMessage, ServerResponse> {
  return {
    logger,
    genReqId,
    // Operational endpoints are polled by health checks and scrapers every few seconds.
    autoLogging: { ignore: (req) => req.url === '/metrics' || (req.url ?? '').startsWith('/-/') },
    // The request is bound to no logger: each line below says what it needs of it.
    quietReqLogger: true,
    quietResLogger: true,
    // The objects below are already what is logged; pino-http's own serializers would add the headers.
    wrapSerializers: false,
    customLogLevel: (_req, res, err) => (err !== undefined || res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: (req, res, value: { responseTime?: number }) => {
      const base = { responseTime: value.responseTime };
      if (isErrorAnswer(res) || logger.isLevelEnabled('debug')) return { ...detailed(req, res), ...base };
      return { req: summary(req), res: { statusCode: res.statusCode }, ...base };
    },
    customErrorObject: (req, res, err, value: { responseTime?: number }) => ({
      ...detailed(req, res),
      err,
      responseTime: value.responseTime,
    }),
  };
}
