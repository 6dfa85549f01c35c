import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  HttpError,
  ModelError,
  NotFoundError,
  ParamError,
  TooManyRequestsError,
  UnauthorizedError,
  UnavailableError,
} from '../errors';
import { sendJson } from './json';
import { MALFORMED_STATUS, sendMalformed } from './malformed';

/** Maps a thrown error to GitLab's status and body (as lib/api/helpers.rb renders them). */
export function renderError(
  err: unknown,
): { status: number; body: unknown; headers?: Record<string, string> } | null {
  if (err instanceof NotFoundError) return { status: 404, body: { message: err.message } };
  if (err instanceof UnauthorizedError) return { status: 401, body: { message: err.message } };
  if (err instanceof ForbiddenError) return { status: 403, body: { message: err.message } };
  if (err instanceof ParamError) return { status: 400, body: { error: err.message } };
  if (err instanceof BadRequestError) return { status: 400, body: { message: err.message } };
  if (err instanceof ModelError) return { status: err.status, body: { message: err.body } };
  if (err instanceof ConflictError) return { status: 409, body: { message: err.message } };
  if (err instanceof HttpError) return { status: err.status, body: err.body };
  if (err instanceof TooManyRequestsError)
    return {
      status: 429,
      body: { message: { error: err.message } },
      headers: { 'Retry-After': String(err.retryAfterSeconds) },
    };
  if (err instanceof UnavailableError) return { status: 503, body: { message: '503 Service Unavailable' } };
  return null;
}

/**
 * Express and the libraries under it flag a client's mistake with a 4xx `status` (http-errors style), e.g.
 * the URIError of a path parameter that does not decode: the client's fault, never a 500.
 */
function clientMistakeStatus(err: unknown): number | null {
  if (!(err instanceof Error)) return null;
  const status =
    (err as { status?: unknown; statusCode?: unknown }).status ??
    (err as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    // Answered already, e.g. a body refused at the edge while a reader of it failed on the same limit.
    if (res.writableEnded) return;
    const rendered = renderError(err);
    if (rendered) {
      for (const [name, value] of Object.entries(rendered.headers ?? {})) res.setHeader(name, value);
      sendJson(res, rendered.status, rendered.body);
      return;
    }
    const clientStatus = res.headersSent ? null : clientMistakeStatus(err);
    if (clientStatus === MALFORMED_STATUS) {
      sendMalformed(res);
      return;
    }
    if (clientStatus !== null) {
      sendJson(res, clientStatus, { message: `${clientStatus} ${STATUS_CODES[clientStatus] ?? 'Error'}` });
      return;
    }
    const errorId = randomUUID();
    logger.error({ err, errorId, requestId: req.headers['x-request-id'] }, 'unhandled error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendJson(res, 500, { message: '500 Internal Server Error' });
  };
}

/** A path no route matched: Grape's catch-all body. */
export function notFoundHandler(_req: Request, res: Response): void {
  sendJson(res, 404, { error: '404 Not Found' });
}
