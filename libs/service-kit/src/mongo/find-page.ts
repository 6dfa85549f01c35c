import type { FilterQuery, Model } from 'mongoose';
import type { PageRequest } from '../http/pagination';

/** One page of the matching documents, in `sort` order, and how many match in all. */
export async function findPage<T>(
  model: Model<T>,
  filter: FilterQuery<T>,
  sort: Record<string, 1 | -1>,
  page: PageRequest,
): Promise<{ total: number; docs: T[] }> {
  const [total, docs] = await Promise.all([
    model.countDocuments(filter),
    model.find(filter).sort(sort).skip(page.skip).limit(page.perPage).lean<T[]>(),
  ]);
  return { total, docs };
}
