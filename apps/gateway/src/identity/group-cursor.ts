import { encodeKeysetCursor, invalidCursor, readKeysetCursor } from '@gl/service-kit';

/** Where a group keyset page starts: the name and id of the last group of the page before. */
export interface GroupCursor {
  name: string;
  id: number;
}

/** The longest cursor read: a group name (at most 255 characters) and an id encode well under it. */
const MAX_CURSOR_LENGTH = 2_000;

/** The cursor of the group after which the next page starts (its name, then its id as text, as GitLab). */
export function encodeGroupCursor(cursor: GroupCursor): string {
  return encodeKeysetCursor({ name: cursor.name, id: String(cursor.id) });
}

/** The cursor a client sent back, or 400 `cursor is invalid` for anything this server did not write. */
export function decodeGroupCursor(text: string): GroupCursor {
  const { name, id } = readKeysetCursor(text, MAX_CURSOR_LENGTH);
  const idText = typeof id === 'number' ? String(id) : id;
  if (typeof name !== 'string' || typeof idText !== 'string' || !/^\d{1,15}$/.test(idText))
    throw invalidCursor();
  return { name, id: Number(idText) };
}
