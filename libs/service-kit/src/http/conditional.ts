import { createHash } from 'node:crypto';
import type { Response } from 'express';

/**
 * Conditional GETs (RFC 9110 §8.8.3 ETag, §13.1.2 If-None-Match, §15.4.5 304 Not Modified). GitLab's
 * API ignores If-None-Match (gitlab-org/gitlab#14357); here every 2xx JSON answer to a GET or HEAD carries
 * a weak entity tag, a hash of exactly what the caller would receive, and a request whose If-None-Match
 * holds that tag gets 304 with no body. A client that sends no If-None-Match (python-gitlab, gitbeaker)
 * never gets a 304.
 *
 * The tag hashes the status, the page headers already set on the response and the serialized body, so
 * it differs wherever the answer does: between callers who see different rows, between pages of a list,
 * before and after a write. It is computed where the body is serialized (sendJson), once per answer.
 */

/**
 * Response headers that are part of the answer as much as the body is (pagination.ts sets them before
 * the body is sent): the same rows with a different total or next page are a different answer.
 */
const HASHED_HEADERS = [
  'x-page',
  'x-per-page',
  'x-next-page',
  'x-prev-page',
  'x-total',
  'x-total-pages',
  'x-next-cursor',
  'link',
] as const;

/** Only a safe read of a successful answer gets a tag (RFC 9110 §13.2.1: other statuses ignore preconditions). */
function taggable(method: string | undefined, status: number): boolean {
  return (method === 'GET' || method === 'HEAD') && status >= 200 && status < 300;
}

/** The weak entity tag of an answer: `W/"<sha1 of status, page headers and body, base64url>"`. */
export function jsonEntityTag(status: number, headers: Response['getHeader'], payload: string): string {
  const hash = createHash('sha1');
  hash.update(String(status));
  for (const name of HASHED_HEADERS) {
    const value = headers(name);
    // A separator no header value holds, so `a` + `bc` and `ab` + `c` hash differently.
    if (value !== undefined) hash.update(`\n${name}:${String(value)}`);
  }
  hash.update('\n\n');
  hash.update(payload);
  return `W/"${hash.digest('base64url')}"`;
}

const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

/**
 * Whether an If-None-Match field value matches this tag by weak comparison (RFC 9110 §8.8.3.2: the
 * opaque tags are equal, either or both may be weak): `*`, or any tag of a comma-separated list.
 * Several If-None-Match fields arrive joined by `, ` (Node), which is the same list.
 */
export function ifNoneMatchMatches(field: string | string[] | undefined, tag: string): boolean {
  if (field === undefined) return false;
  const value = Array.isArray(field) ? field.join(', ') : field;
  if (value.trim() === '*') return true;
  const opaque = tag.startsWith('W/') ? tag.slice(2) : tag;
  for (const match of value.matchAll(ENTITY_TAG)) {
    if (`"${match[1]}"` === opaque) return true;
  }
  return false;
}

/**
 * Tags a JSON answer about to be sent and, when the request's If-None-Match holds its tag, answers it
 * with 304 and no body: true when the answer has been sent. The 304 keeps every header already set (the
 * page headers hashed into the tag among them, equal to the stored answer's) but no Content-Type or
 * Content-Length. Anything but a 2xx answer to GET or HEAD is left alone, untagged.
 */
export function answerIfNotModified(res: Response, status: number, payload: string): boolean {
  const req = res.req as Response['req'] | undefined;
  if (!req || !taggable(req.method, status)) return false;
  const tag = jsonEntityTag(status, (name) => res.getHeader(name), payload);
  res.setHeader('ETag', tag);
  if (!ifNoneMatchMatches(req.headers['if-none-match'], tag)) return false;
  res.status(304);
  res.removeHeader('Content-Type');
  res.removeHeader('Content-Length');
  res.end();
  return true;
}
