import {
  encodeTimeKeysetCursor,
  keysetRange,
  keysetUnavailable,
  readTimeKeysetCursor,
  type TimeKeysetCursor,
} from '@gl/service-kit';

/** The orders a keyset page of issues, merge requests or notes is read in by an index range. */
export const KEYSET_ORDERS = ['id', 'created_at', 'updated_at'] as const;
export type KeysetOrderBy = (typeof KEYSET_ORDERS)[number];

const FIELDS: Record<KeysetOrderBy, 'createdAt' | 'updatedAt' | null> = {
  id: null,
  created_at: 'createdAt',
  updated_at: 'updatedAt',
};

/** A keyset order: the time field (null: the id alone), then the id, both in `direction`. */
export interface KeysetOrder {
  orderBy: KeysetOrderBy;
  field: 'createdAt' | 'updatedAt' | null;
  direction: 1 | -1;
}

/**
 * The keyset order of a list request, created_at descending by default as the lists' offset pages. The
 * other orders (title, due date, positions, priorities, votes, merge time) are nulls-last or read across
 * parts, which a cursor of one value and an id cannot resume: GitLab's 405 for keyset requests it cannot
 * serve (lib/api/helpers/pagination_strategies.rb).
 */
export function keysetOrderOf(orderBy: string | undefined, sort: 'asc' | 'desc' | undefined): KeysetOrder {
  const given = orderBy ?? 'created_at';
  if (!(KEYSET_ORDERS as readonly string[]).includes(given)) throw keysetUnavailable();
  const key = given as KeysetOrderBy;
  return { orderBy: key, field: FIELDS[key], direction: sort === 'asc' ? 1 : -1 };
}

/** The database sort of a keyset order: the field, then the id, in one direction. */
export function keysetSort(order: KeysetOrder): Record<string, 1 | -1> {
  return order.field ? { [order.field]: order.direction, _id: order.direction } : { _id: order.direction };
}

/** The cursor a client sent back (400 `cursor is invalid` for anything else), or null for the first page. */
export function readListCursor(order: KeysetOrder, text: string | undefined): TimeKeysetCursor | null {
  return text === undefined ? null : readTimeKeysetCursor(text, order.orderBy);
}

/** The conditions that start a page after the cursor (none for the first page). */
export function afterCursor(order: KeysetOrder, cursor: TimeKeysetCursor | null): Record<string, unknown>[] {
  return cursor === null ? [] : keysetRange(order.field, order.direction, cursor);
}

/** The cursor of the page after `last`, in GitLab's Paginator form. */
export function cursorAfter(
  order: KeysetOrder,
  last: { _id: number; createdAt?: Date | null; updatedAt?: Date | null },
): string {
  const value = order.field ? (last[order.field] ?? null) : null;
  return encodeTimeKeysetCursor(order.orderBy, value && new Date(value), last._id);
}

/** One read of `limit + 1` rows: the page, and the next page's cursor when more rows follow. */
export function keysetPageOf<T extends { _id: number; createdAt?: Date | null; updatedAt?: Date | null }>(
  order: KeysetOrder,
  found: T[],
  limit: number,
): { items: T[]; nextCursor: string | null } {
  const items = found.slice(0, limit);
  const last = items.at(-1);
  return { items, nextCursor: found.length > limit && last ? cursorAfter(order, last) : null };
}
