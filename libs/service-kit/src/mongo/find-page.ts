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
 * The total of a page read one row past its window (`hasNext`), bounded as GitLab bounds it: past `limit`
 * matches there is no total on any page, the last included (Kaminari's MAX_COUNT_LIMIT, withheld whenever
 * the count passes it). A page that shows the list's end tells the total; rows found past the limit tell it
 * is withheld; otherwise `count` decides (a count up to the limit, null past it).
 */
export async function boundedTotal(
  window: { skip: number; shown: number; hasNext: boolean },
  limit: number,
  count: () => Promise<number | null>,
): Promise<number | null> {
  const { skip, shown, hasNext } = window;
  if (!hasNext && (shown > 0 || skip === 0)) return skip + shown > limit ? null : skip + shown;
  // Rows found this deep prove the list passes the limit; an empty page past the end proves nothing.
  if (shown > 0 && skip + shown + (hasNext ? 1 : 0) > limit) return null;
  return count();
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

/** One range of a list read in parts: its filter and the order within it. */
export interface ListPart<T> {
  filter: FilterQuery<T>;
  sort: Record<string, 1 | -1>;
}

/**
 * The window (`skip`, `take`) of a list made of several ranges one after another (a nulls-last order: the
 * items with a value in order, then those without by id), each read along its own index. A range is read
 * only if the window reaches it, and where one ends is counted only when its own read cannot tell (the
 * window starts past its end).
 */
export async function findAcrossParts<T>(
  model: Model<T>,
  parts: readonly ListPart<T>[],
  skip: number,
  take: number,
): Promise<T[]> {
  let items: T[] = [];
  let offset = skip;
  for (const [i, part] of parts.entries()) {
    const found = await model
      .find(part.filter)
      .sort(part.sort)
      .skip(offset)
      .limit(take - items.length)
      .lean<T[]>();
    items = [...items, ...found];
    if (items.length >= take || i === parts.length - 1) break;
    const size =
      found.length > 0 || offset === 0 ? offset + found.length : await model.countDocuments(part.filter);
    offset = Math.max(0, offset - size);
  }
  return items;
}

/**
 * How many documents match, or null when more than `limit` do (GitLab stops counting at Kaminari's
 * MAX_COUNT_LIMIT). One count that stops at the first match past the limit: MongoDB walks at most
 * `limit + 1` index keys, the local database as many entries as it takes to find them (FerretDB patch
 * 0010). With `memo`, a list found past the limit is not counted again for a while.
 */
export async function countUpTo<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  limit: number,
  memo?: BeyondLimitMemo,
): Promise<number | null> {
  const count = () => model.countDocuments(filter, { limit: limit + 1 }).exec();
  if (memo) return memo.upTo(listKey(model, filter), limit, count);
  const n = await count();
  return n > limit ? null : n;
}

/** A key naming a list: its collection and filter (regular expressions by their source and flags). */
export function listKey<T>(model: Model<T>, filter: FilterQuery<T>): string {
  const named = JSON.stringify(filter, (_key, value: unknown) =>
    value instanceof RegExp ? { $regex: value.source, $options: value.flags } : value,
  );
  return `${model.collection.collectionName} ${named}`;
}
