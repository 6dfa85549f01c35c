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
  page: PageRequest,
): Promise<{ total: number; docs: T[] }> {
  const docs = await model.find(filter).sort(sort).skip(page.skip).limit(page.perPage).lean<T[]>();
  const total = totalFromPage(page, docs.length) ?? (await model.countDocuments(filter));
  return { total, docs };
}
