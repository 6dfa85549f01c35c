import type { Request, Response } from 'express';
import { KEYSET_UNAVAILABLE_MESSAGE } from '@gl/contracts';
import { HttpError } from '../errors';
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
