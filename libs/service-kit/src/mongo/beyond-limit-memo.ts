/** How long a list found past its count limit is taken to stay past it, unless told otherwise. */
export const BEYOND_LIMIT_TTL_MS = 60_000;
const MAX_LISTS = 2_000;

export interface BeyondLimitMemoOptions {
  ttlMs?: number;
  /** How many lists are remembered at most; the oldest answer goes first. */
  maxLists?: number;
  now?: () => number;
}

/**
 * Remembers, per list (any key that names its filter), that more than the count limit matched.
 *
 * Whether a list passes GitLab's count limit (10,000) only decides whether X-Total is sent, yet asking it
 * walks ten thousand matching index entries, and on a dense filter several times as many: 20–30 ms on the
 * local database for a board column of 100,000 issues, more than the page itself. A list that large does
 * not shrink below the limit between two page loads, so the answer "past the limit" is kept for a minute
 * (GitLab keeps large issue counts too: Gitlab::IssuablesCountForState caches them above a threshold).
 * "Not past the limit" is never kept: a list within the limit shows its exact total, counted each time.
 * Per process: replicas each ask once a minute.
 */
export function createBeyondLimitMemo(options: BeyondLimitMemoOptions = {}) {
  const ttlMs = options.ttlMs ?? BEYOND_LIMIT_TTL_MS;
  const maxLists = options.maxLists ?? MAX_LISTS;
  const now = options.now ?? Date.now;
  /** When each list was last found past the limit (insertion order = age, for eviction). */
  const foundBeyond = new Map<string, number>();

  function remembered(key: string): boolean {
    const at = foundBeyond.get(key);
    if (at === undefined) return false;
    if (now() - at < ttlMs) return true;
    foundBeyond.delete(key);
    return false;
  }

  function remember(key: string): void {
    foundBeyond.delete(key);
    foundBeyond.set(key, now());
    if (foundBeyond.size > maxLists) foundBeyond.delete(foundBeyond.keys().next().value as string);
  }

  return {
    /**
     * How many match the list `key` names, from `count` (which may stop past `limit`), or null when more
     * than `limit` do: remembered, or counted. Counts are not shared between concurrent requests: a count
     * begun before a caller's own write would leave that write out of the caller's total.
     */
    async upTo(key: string, limit: number, count: () => Promise<number>): Promise<number | null> {
      if (remembered(key)) return null;
      const n = await count();
      if (n <= limit) return n;
      remember(key);
      return null;
    },
  };
}

export type BeyondLimitMemo = ReturnType<typeof createBeyondLimitMemo>;
