import { randomUUID } from 'node:crypto';
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
  UnauthorizedError,
  UnavailableError,
} from '../errors';
import { sendJson } from './json';

/** Maps a thrown error to GitLab's status and body (gitlab-behaviour.md §1.1). */
export function renderError(err: unknown): { status: number; body: unknown } | null {
  if (err instanceof NotFoundError) return { status: 404, body: { message: err.message } };
  if (err instanceof UnauthorizedError) return { status: 401, body: { message: err.message } };
  if (err instanceof ForbiddenError) return { status: 403, body: { message: err.message } };
  if (err instanceof ParamError) return { status: 400, body: { error: err.message } };
  if (err instanceof BadRequestError) return { status: 400, body: { message: err.message } };
  if (err instanceof ModelError) return { status: err.status, body: { message: err.body } };
  if (err instanceof ConflictError) return { status: 409, body: { message: err.message } };
  if (err instanceof HttpError) return { status: err.status, body: err.body };
  if (err instanceof UnavailableError) return { status: 503, body: { message: '503 Service Unavailable' } };
  return null;
}

export function errorHandler(logger: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const rendered = renderError(err);
    if (rendered) {
      sendJson(res, rendered.status, rendered.body);
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
