import type { FilterQuery } from 'mongoose';
import type { ListUsersQuery } from '@gl/contracts';
import { encodeKeysetCursor, invalidCursor, readKeysetCursor } from '@gl/service-kit';
import type { UserDoc } from './identity.models';
import type { UsersStore } from './users.store';

type UserOrder = NonNullable<ListUsersQuery['order_by']>;

const FIELDS: Record<UserOrder, 'name' | 'username' | 'createdAt' | 'updatedAt' | '_id'> = {
  id: '_id',
  name: 'name',
  username: 'username',
  created_at: 'createdAt',
  updated_at: 'updatedAt',
};

/**
 * GET /users's order (lib/api/users.rb reorder_users): `order_by` (id by default) and `sort` (desc by
 * default) with the id after it in the same direction (order_options_with_tie_breaker); a `search` with
 * neither keeps UsersFinder's order, which here is the default one.
 */
export function userListSort(query: ListUsersQuery): Record<string, 1 | -1> {
  const direction = query.sort === 'asc' ? 1 : -1;
  const field = FIELDS[query.order_by ?? 'id'];
  return field === '_id' ? { _id: direction } : { [field]: direction, _id: direction };
}

/** Where a user keyset page starts: the last user's value of the order column (none by id) and id. */
interface UserCursor {
  value: string | Date | null;
  id: number;
}

/** Rails' Time::DATE_FORMATS[:inspect] ("%Y-%m-%d %H:%M:%S.%9N %z"), as the Paginator writes a time. */
function inspectTime(time: Date): string {
  const iso = time.toISOString(); // 2024-01-02T03:04:05.678Z
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}000000 +0000`;
}

const INSPECT_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))? ([+-])(\d{2}):?(\d{2})$/;

function parseInspectTime(text: string): Date | null {
  const match = INSPECT_TIME.exec(text);
  if (!match) return null;
  const [, day, clock, fraction = '', sign, hours, minutes] = match;
  const millis = fraction.padEnd(3, '0').slice(0, 3);
  const date = new Date(`${day}T${clock}.${millis}${sign}${hours}:${minutes}`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/**
 * The cursor as GitLab's keyset Paginator writes one (Gitlab::Pagination::Keyset::Paginator and
 * Order#cursor_attributes_for_node): the order columns' values as text (a time in Rails' inspect format,
 * the id as text), `_kd` `n` for the next page, as JSON in padded URL-safe base64.
 */
export function encodeUserCursor(user: UserDoc, orderBy: UserOrder): string {
  const attributes: Record<string, string | null> = {};
  if (orderBy !== 'id') {
    const value = user[FIELDS[orderBy] as 'name' | 'username' | 'createdAt' | 'updatedAt'] as
      string | Date | undefined;
    attributes[orderBy] = value instanceof Date ? inspectTime(value) : (value ?? null);
  }
  attributes.id = String(user._id);
  return encodeKeysetCursor(attributes);
}

/** The cursor a client sent back for this order, or 400 `cursor is invalid`. */
function decodeUserCursor(text: string, orderBy: UserOrder): UserCursor {
  const invalid = invalidCursor();
  const fields = readKeysetCursor(text);
  const id = typeof fields.id === 'number' ? String(fields.id) : fields.id;
  if (typeof id !== 'string' || !/^\d{1,15}$/.test(id)) throw invalid;
  if (orderBy === 'id') return { value: null, id: Number(id) };
  const raw = fields[orderBy];
  if (typeof raw !== 'string') throw invalid;
  if (orderBy === 'created_at' || orderBy === 'updated_at') {
    const time = parseInspectTime(raw);
    if (!time) throw invalid;
    return { value: time, id: Number(id) };
  }
  return { value: raw, id: Number(id) };
}

/** The users after the cursor in the order: a range on the order's { field, _id } index. */
function afterCursor(orderBy: UserOrder, direction: 1 | -1, cursor: UserCursor): FilterQuery<UserDoc> {
  const beyond = direction === 1 ? '$gt' : '$lt';
  if (orderBy === 'id') return { _id: { [beyond]: cursor.id } };
  const field = FIELDS[orderBy];
  return {
    [field]: { [direction === 1 ? '$gte' : '$lte']: cursor.value },
    $or: [{ [field]: { [beyond]: cursor.value } }, { [field]: cursor.value, _id: { [beyond]: cursor.id } }],
  };
}

/**
 * One keyset page of GET /users as GitLab pages it (CursorBasedKeyset: User supports id, name, username,
 * created_at and updated_at, ascending or descending): `perPage` users from the cursor on, one more read to
 * know whether a next page exists, and that page's cursor when it does.
 */
export async function usersByKeyset(
  store: UsersStore,
  query: ListUsersQuery,
  perPage: number,
): Promise<{ users: UserDoc[]; nextCursor: string | null }> {
  const orderBy = query.order_by ?? 'id';
  const direction = query.sort === 'asc' ? 1 : -1;
  const from = query.cursor ? afterCursor(orderBy, direction, decodeUserCursor(query.cursor, orderBy)) : {};
  const found = await store.seek(query, from, userListSort(query), perPage + 1);
  const users = found.slice(0, perPage);
  const last = users.at(-1);
  const nextCursor = found.length > perPage && last ? encodeUserCursor(last, orderBy) : null;
  return { users, nextCursor };
}
