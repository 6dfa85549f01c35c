import type { Response } from 'express';

/**
 * GitLab answers `Content-Type: application/json` with no charset; python-gitlab 3.12 compares the header
 * literally, so Express's `res.json()` (which appends `; charset=utf-8`) must not be used.
 */
export const JSON_CONTENT_TYPE = 'application/json';

export function sendJson(res: Response, status: number, body: unknown): void {
  const payload = JSON.stringify(body ?? null);
  res.status(status);
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.end(payload);
}

/** DELETE without a body: 204 and nothing else (never an empty JSON body, which gitbeaker rejects). */
export function sendNoContent(res: Response): void {
  res.status(204).end();
}
