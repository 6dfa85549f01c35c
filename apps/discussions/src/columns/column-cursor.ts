import { encodeKeysetCursor, invalidCursor, readKeysetCursor } from '@gl/service-kit';

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

/** The cursor of the issue after which the next page starts (GitLab's keyset Paginator's form). */
export function encodeColumnCursor(cursor: ColumnCursor): string {
  return encodeKeysetCursor({ relative_position: cursor.relativePosition, id: cursor.id });
}

const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/** The cursor a client sent back, or a 400 `cursor is invalid` for anything this server did not write. */
export function decodeColumnCursor(text: string): ColumnCursor {
  const { relative_position: position, id } = readKeysetCursor(text, MAX_CURSOR_LENGTH);
  if (!isInteger(id) || !(position === null || isInteger(position))) throw invalidCursor();
  return { relativePosition: position, id };
}
