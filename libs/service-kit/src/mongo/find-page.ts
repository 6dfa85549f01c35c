import type { FilterQuery, Model } from 'mongoose';
import type { PageRequest } from '../http/pagination';

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
 * database — so `matchesMoreThan` is asked first and only a list within the limit is counted.
 */
export async function countUpTo<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  sort: Record<string, 1 | -1>,
  limit: number,
): Promise<number | null> {
  if (await matchesMoreThan(model, filter, sort, limit)) return null;
  return model.countDocuments(filter);
}
