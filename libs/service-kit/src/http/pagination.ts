import type { Request, Response } from 'express';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, readPagination } from '@gl/contracts';
import { ParamError } from '../errors';

export { DEFAULT_PER_PAGE, MAX_PER_PAGE };

export interface PageRequest {
  page: number;
  perPage: number;
  /** Documents to skip: (page - 1) * perPage, at most MAX_SKIP. */
  skip: number;
}

/**
 * The most documents a page skips. A page further on is past the end of every list here, and a skip the
 * database reads as a 32-bit integer is one every store (MongoDB, FerretDB, in-memory slices) takes.
 */
export const MAX_SKIP = 2 ** 31 - 1;

/**
 * GitLab's offset pagination parameters, read by the one rule every list shares (`readPagination` in
 * libs/contracts/src/pagination.ts, which cites GitLab): page ≤ 0 or empty is page 1, per_page 0 is 400
 * "per_page has a value not allowed", a non-integer is 400 "<name> is invalid", per_page is capped at 100.
 */
export function readPageRequest(
  query: Record<string, unknown>,
  defaultPerPage = DEFAULT_PER_PAGE,
): PageRequest {
  const read = readPagination(query, defaultPerPage);
  if ('errors' in read) throw new ParamError(read.errors);
  const { page, perPage } = read;
  return { page, perPage, skip: Math.min((page - 1) * perPage, MAX_SKIP) };
}

/** The client-facing base URL of this request; the gateway forwards the original host and protocol. */
export function requestBaseUrl(req: Request): string {
  // Without the header, Express's req.protocol is the socket's own (it reads the header only from a
  // trusted proxy), so that is taken directly rather than through the trust-proxy check.
  const own = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  const proto = String(req.headers['x-forwarded-proto'] ?? own)
    .split(',')[0]!
    .trim();
  const host = String(req.headers['x-forwarded-host'] ?? req.headers.host ?? 'localhost')
    .split(',')[0]!
    .trim();
  return `${proto}://${host}`;
}

/**
 * Writes GitLab's pagination headers (lib/gitlab/pagination/offset_header_builder.rb): X-Page, X-Per-Page,
 * X-Next-Page / X-Prev-Page ("" when none), X-Total, X-Total-Pages (≥ 1), and Link with prev, next, first,
 * last in that order, each an absolute URL on the request's own host carrying every original query
 * parameter plus page and per_page (gitbeaker follows rel="next" and needs per_page in it).
 */
export function setPaginationHeaders(req: Request, res: Response, page: PageRequest, total: number): void {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage));
  // Kaminari: a page past the end has neither a next nor a previous page.
  const outOfRange = page.page > totalPages;
  writePageHeaders(req, res, page, {
    next: !outOfRange && page.page < totalPages ? page.page + 1 : null,
    prev: !outOfRange && page.page > 1 ? page.page - 1 : null,
    total: { total, totalPages },
  });
}

/**
 * GitLab past Kaminari's MAX_COUNT_LIMIT (10,000 rows): the total is not counted, so X-Total, X-Total-Pages
 * and the `last` link are left out; the next page is known from whether one more row exists.
 */
export function setUncountedPaginationHeaders(
  req: Request,
  res: Response,
  page: PageRequest,
  hasNext: boolean,
): void {
  writePageHeaders(req, res, page, {
    next: hasNext ? page.page + 1 : null,
    prev: page.page > 1 ? page.page - 1 : null,
    total: null,
  });
}

interface PageHeaders {
  next: number | null;
  prev: number | null;
  total: { total: number; totalPages: number } | null;
}

function writePageHeaders(req: Request, res: Response, page: PageRequest, headers: PageHeaders): void {
  const original = new URL(req.originalUrl, 'http://placeholder');
  // The request's own parameters without page and per_page, then those two, appended in that order.
  const kept = new URLSearchParams(original.search);
  kept.delete('page');
  kept.delete('per_page');
  const keptText = kept.toString();
  const base = `${requestBaseUrl(req)}${original.pathname}?${keptText ? `${keptText}&` : ''}page=`;
  const linkTo = (target: number): string => `${base}${target}&per_page=${page.perPage}`;
  const { next, prev, total } = headers;
  const links: string[] = [];
  if (prev !== null) links.push(`<${linkTo(prev)}>; rel="prev"`);
  if (next !== null) links.push(`<${linkTo(next)}>; rel="next"`);
  links.push(`<${linkTo(1)}>; rel="first"`);
  if (total) links.push(`<${linkTo(total.totalPages)}>; rel="last"`);

  res.setHeader('X-Page', String(page.page));
  res.setHeader('X-Per-Page', String(page.perPage));
  res.setHeader('X-Next-Page', next === null ? '' : String(next));
  res.setHeader('X-Prev-Page', prev === null ? '' : String(prev));
  if (total) {
    res.setHeader('X-Total', String(total.total));
    res.setHeader('X-Total-Pages', String(total.totalPages));
  }
  res.setHeader('Link', links.join(', '));
}

/**
 * GitLab's cursor-based keyset pagination headers (Gitlab::Pagination::Keyset::CursorPager and its
 * HeaderBuilder): when a next page exists, `Link: <url>; rel="next"` whose query is the request's own with
 * `cursor` set to the next page's cursor, and `X-Next-Cursor` with the cursor alone. No page numbers and no
 * totals; the last page has neither header.
 */
export function setKeysetPaginationHeaders(req: Request, res: Response, nextCursor: string | null): void {
  if (nextCursor === null) return;
  const original = new URL(req.originalUrl, 'http://placeholder');
  const query = new URLSearchParams(original.search);
  query.set('cursor', nextCursor);
  query.sort();
  res.setHeader('Link', `<${requestBaseUrl(req)}${original.pathname}?${query.toString()}>; rel="next"`);
  res.setHeader('X-Next-Cursor', nextCursor);
}
