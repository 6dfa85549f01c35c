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

/** Rails' Time::DATE_FORMATS[:inspect] ("%Y-%m-%d %H:%M:%S.%9N %z"), as the keyset Paginator writes a time. */
export function inspectTime(time: Date): string {
  const iso = time.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000000 +0000`;
}

const INSPECT_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))? ([+-])(\d{2}):?(\d{2})$/;

/** A time as inspectTime writes it (any offset, up to nine fraction digits); null when it is not one. */
export function parseInspectTime(text: string): Date | null {
  const match = INSPECT_TIME.exec(text);
  if (!match) return null;
  const [, day, clock, fraction = '', sign, hours, minutes] = match;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  const date = new Date(`${day}T${clock}.${millis}${sign}${hours}:${minutes}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * Where a keyset page ordered by one time column (or by the id alone) starts: the last row's value of the
 * column (null when ordered by id) and its id.
 */
export interface TimeKeysetCursor {
  value: Date | null;
  id: number;
}

/**
 * The cursor of a row in an order on `orderBy` (a time column, or `id` alone) as GitLab's Paginator writes
 * it (Order#cursor_attributes_for_node): the time in Rails' inspect format and the id as text.
 */
export function encodeTimeKeysetCursor(orderBy: string, value: Date | null, id: number): string {
  const attributes: Record<string, string> = {};
  if (orderBy !== 'id' && value !== null) attributes[orderBy] = inspectTime(value);
  attributes.id = String(id);
  return encodeKeysetCursor(attributes);
}

/** The cursor a client sent back for an order on `orderBy` (a time column or `id`), or `invalidCursor`. */
export function readTimeKeysetCursor(text: string, orderBy: string, maxLength = 300): TimeKeysetCursor {
  const fields = readKeysetCursor(text, maxLength);
  const id = typeof fields.id === 'number' ? String(fields.id) : fields.id;
  if (typeof id !== 'string' || !/^\d{1,15}$/.test(id)) throw invalidCursor();
  if (orderBy === 'id') return { value: null, id: Number(id) };
  const raw = fields[orderBy];
  const time = typeof raw === 'string' ? parseInspectTime(raw) : null;
  if (!time) throw invalidCursor();
  return { value: time, id: Number(id) };
}

/**
 * The rows after the cursor in an order on `field` (null: the id alone) then the id, both in `direction`,
 * as conditions for a flat `$and`: a range on the field seeks its `{…, field, _id}` index to the cursor,
 * and the `$or` leaves out the rows of the cursor's value up to its id.
 */
export function keysetRange(
  field: string | null,
  direction: 1 | -1,
  cursor: TimeKeysetCursor,
): Record<string, unknown>[] {
  const beyond = direction === 1 ? '$gt' : '$lt';
  if (field === null || cursor.value === null) return [{ _id: { [beyond]: cursor.id } }];
  return [
    { [field]: { [direction === 1 ? '$gte' : '$lte']: cursor.value } },
    { $or: [{ [field]: { [beyond]: cursor.value } }, { _id: { [beyond]: cursor.id } }] },
  ];
}
