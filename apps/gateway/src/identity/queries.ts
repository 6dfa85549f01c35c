import type { FilterQuery, Model } from 'mongoose';
import type { PageRequest } from '@gl/service-kit';
import type { UserDoc } from './identity.models';

/** A `search` parameter as a case-insensitive substring match: the text is taken literally, never as a regex. */
export function searchPattern(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i');
}

/** User.search: the name or username contains the text, or the e-mail address is exactly it. */
export function userSearchConditions(text: string): FilterQuery<UserDoc>[] {
  const pattern = searchPattern(text);
  return [{ name: pattern }, { username: pattern }, { emailLower: text.toLowerCase() }];
}

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
