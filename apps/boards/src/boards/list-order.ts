/**
 * The pure rules of list positions (Boards::Lists::MoveService / DestroyService): a board's movable lists
 * form one array whose index is the position, so positions are a dense 0..n-1 sequence by construction.
 */

/** Moving is refused unless 0 ≤ to < count and to ≠ from (GitLab: "List could not be moved!"). */
export function isValidMove(count: number, from: number, to: number): boolean {
  return from >= 0 && from < count && to >= 0 && to < count && to !== from;
}

/** The order after moving the item at `from` to `to`; the items in between shift by one. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] | null {
  if (!isValidMove(items.length, from, to)) return null;
  const next = [...items];
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved as T);
  return next;
}

/** The order after removing the item at `index`; the ones after it move up by one. */
export function removeItem<T>(items: readonly T[], index: number): T[] {
  return items.filter((_, i) => i !== index);
}
