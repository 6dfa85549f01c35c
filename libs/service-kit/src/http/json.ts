import type { Response } from 'express';
import { answerIfNotModified } from './conditional';

/**
 * GitLab answers `Content-Type: application/json` with no charset; python-gitlab 3.12 compares the header
 * literally, so Express's `res.json()` (which appends `; charset=utf-8`) must not be used.
 */
export const JSON_CONTENT_TYPE = 'application/json';

/**
 * Sends a JSON answer. A 2xx answer to GET or HEAD carries an ETag, and is a bodiless 304 when the
 * request's If-None-Match holds it (conditional.ts): the body is hashed here, where it is serialized.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const payload = JSON.stringify(body ?? null);
  res.status(status);
  if (answerIfNotModified(res, status, payload)) return;
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

/** DELETE without a body: 204 and nothing else (never an empty JSON body, which gitbeaker rejects). */
export function sendNoContent(res: Response): void {
  res.status(204).end();
}
