import { ParamError } from '@gl/service-kit';

/** Where a group keyset page starts: the name and id of the last group of the page before. */
export interface GroupCursor {
  name: string;
  id: number;
}

/** The longest cursor read: a group name (at most 255 characters) and an id encode well under it. */
const MAX_CURSOR_LENGTH = 2_000;

/**
 * The cursor as GitLab's keyset Paginator writes one (Gitlab::Pagination::Keyset::Paginator,
 * Base64CursorConverter): the order columns' values (`name`, then `id` as text, as the cursor in GitLab's
 * doc/api/rest/index.md example, `{"name":"Flightjs","id":"26","_kd":"n"}`) and `_kd` (`n`: the next page),
 * as JSON in padded URL-safe base64 (Base64.urlsafe_encode64).
 */
export function encodeGroupCursor(cursor: GroupCursor): string {
  const json = JSON.stringify({ name: cursor.name, id: String(cursor.id), _kd: 'n' });
  return Buffer.from(json, 'utf8').toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** The cursor a client sent back, or 400 `cursor is invalid` for anything this server did not write. */
export function decodeGroupCursor(text: string): GroupCursor {
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
  const { name, id, _kd: direction } = parsed as Record<string, unknown>;
  const idText = typeof id === 'number' ? String(id) : id;
  if (typeof name !== 'string' || typeof idText !== 'string' || !/^\d{1,15}$/.test(idText)) throw invalid;
  if (direction !== 'n') throw invalid;
  return { name, id: Number(idText) };
}
