import { ParamError } from '@gl/service-kit';

/**
 * Where a board column's keyset page starts: the order values of the last issue of the page before
 * (relative position, null for the issues without one, which follow by id; then id).
 */
export interface ColumnCursor {
  relativePosition: number | null;
  id: number;
}

/** The longest cursor read: an encoded position and id are well under it. */
const MAX_CURSOR_LENGTH = 200;

/**
 * The cursor as GitLab's keyset Paginator writes one (Gitlab::Pagination::Keyset::Paginator): the order
 * columns' values and `_kd` (the direction, `n` for next) as JSON, base64url-encoded.
 */
export function encodeColumnCursor(cursor: ColumnCursor): string {
  const json = JSON.stringify({ relative_position: cursor.relativePosition, id: cursor.id, _kd: 'n' });
  return Buffer.from(json, 'utf8').toString('base64url');
}

const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/** The cursor a client sent back, or a 400 `cursor is invalid` for anything this server did not write. */
export function decodeColumnCursor(text: string): ColumnCursor {
  const invalid = new ParamError(['cursor is invalid']);
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+={0,2}$/.test(text))
    throw invalid;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw invalid;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid;
  const { relative_position: position, id, _kd: direction } = parsed as Record<string, unknown>;
  if (!isInteger(id) || !(position === null || isInteger(position)) || direction !== 'n') throw invalid;
  return { relativePosition: position, id };
}
