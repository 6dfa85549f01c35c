import type { Request, Response } from 'express';
import { KEYSET_UNAVAILABLE_MESSAGE } from '@gl/contracts';
import { HttpError, ParamError } from '../errors';
import { requestBaseUrl } from './pagination';

/**
 * GitLab's Gitlab::Pagination::Keyset::HeaderBuilder#add_next_page_header: `Link: <url>; rel="next"`, the
 * request's own URL with its parameters merged with `next` (which replaces a parameter of the same name)
 * and written in key order, as Hash#to_query writes them. Keyset pages carry no other pagination header:
 * no X-Page, X-Total or first/last links.
 */
export function setNextPageLink(req: Request, res: Response, next: Record<string, string>): void {
  const original = new URL(req.originalUrl, 'http://placeholder');
  const query = new URLSearchParams(original.search);
  for (const [name, value] of Object.entries(next)) query.set(name, value);
  query.sort();
  res.setHeader('Link', `<${requestBaseUrl(req)}${original.pathname}?${query.toString()}>; rel="next"`);
}

/**
 * GitLab's answer to `pagination=keyset` on an order the list cannot page by key:
 * `error!('Keyset pagination is not yet available for this type of request', 405)`
 * (lib/api/helpers/pagination_strategies.rb), a 405 with `{"error": "…"}`.
 */
export function keysetUnavailable(): HttpError {
  return new HttpError(405, { error: KEYSET_UNAVAILABLE_MESSAGE });
}

/**
 * A next-page cursor as GitLab's keyset Paginator writes one (Gitlab::Pagination::Keyset::Paginator,
 * Base64CursorConverter): the last row's order values and `_kd: "n"` as JSON in padded URL-safe base64
 * (Base64.urlsafe_encode64).
 */
export function encodeKeysetCursor(values: Record<string, unknown>): string {
  const json = JSON.stringify({ ...values, _kd: 'n' });
  return Buffer.from(json, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** A cursor this server did not write: GitLab surfaces it as a 500, here it is the caller's 400. */
export const invalidCursor = (): ParamError => new ParamError(['cursor is invalid']);

/**
 * The order values of a next-page cursor a client sent back, for the list to check field by field; a
 * text that is not base64 JSON of an object with `_kd: "n"`, or longer than `maxLength`, is `invalidCursor`.
 */
export function readKeysetCursor(text: string, maxLength = 2_000): Record<string, unknown> {
  if (text.length === 0 || text.length > maxLength || !/^[A-Za-z0-9_-]+={0,2}$/.test(text))
    throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalidCursor();
  const fields = parsed as Record<string, unknown>;
  if (fields._kd !== 'n') throw invalidCursor();
  return fields;
}
