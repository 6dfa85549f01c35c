import type { FilterQuery, Model } from 'mongoose';
import type { PageRequest } from '../http/pagination';
import type { BeyondLimitMemo } from './beyond-limit-memo';

/**
 * The total of a list from its page when the page shows it: a page short of `perPage` that holds something,
 * or the first page, is the end of the list. Otherwise (a full page, or a page past the end) undefined.
 */
export function totalFromPage(
  page: Pick<PageRequest, 'skip' | 'perPage'>,
  found: number,
): number | undefined {
  if (found < page.perPage && (found > 0 || page.skip === 0)) return page.skip + found;
  return undefined;
}

/**
 * One page of the matching documents, in `sort` order, and how many match in all. The count is a second
 * query only when the page cannot tell: most lists fit in their first page, and a count costs the database
 * as much as the page itself.
 */
export async function findPage<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  sort: Record<string, 1 | -1>,
  page: Pick<PageRequest, 'skip' | 'perPage'>,
): Promise<{ total: number; docs: T[] }> {
  const docs = await model.find(filter).sort(sort).skip(page.skip).limit(page.perPage).lean<T[]>();
  const total = totalFromPage(page, docs.length) ?? (await model.countDocuments(filter));
  return { total, docs };
}

/**
 * Whether more than `limit` documents match: one entry read past the limit along the index `sort` names
 * (3-8 ms at any size on the local database, where a count walks every matching entry).
 */
export async function matchesMoreThan<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  sort: Record<string, 1 | -1>,
  limit: number,
): Promise<boolean> {
  const beyond = await model.find(filter).sort(sort).skip(limit).limit(1).select({ _id: 1 }).lean();
  return beyond.length > 0;
}

/**
 * How many documents match, or null when more than `limit` do (GitLab stops counting at Kaminari's
 * MAX_COUNT_LIMIT). A count walks every matching index entry — 200,000 entries cost 30–45 ms on the local
 * database — so `matchesMoreThan` is asked first (or its answer taken from `memo`, which remembers lists
 * found past the limit) and only a list within the limit is counted.
 */
export async function countUpTo<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  sort: Record<string, 1 | -1>,
  limit: number,
  memo?: BeyondLimitMemo,
): Promise<number | null> {
  const probe = () => matchesMoreThan(model, filter, sort, limit);
  const beyond = memo ? memo.beyond(listKey(model, filter), probe) : probe();
  if (await beyond) return null;
  return model.countDocuments(filter);
}

/** A key naming a list: its collection and filter (regular expressions by their source and flags). */
export function listKey<T>(model: Model<T>, filter: FilterQuery<T>): string {
  const named = JSON.stringify(filter, (_key, value: unknown) =>
    value instanceof RegExp ? { $regex: value.source, $options: value.flags } : value,
  );
  return `${model.collection.collectionName} ${named}`;
}
