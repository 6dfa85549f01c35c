import type { FilterQuery, Model } from 'mongoose';
import { findPage, type PageRequest } from '@gl/service-kit';

/**
 * The reads a finder (groups.finder.ts, projects.service.ts) makes of a collection once it has built the
 * filter and the order: an offset page, or a keyset page.
 */
export function finderReads<T>(model: Model<T>) {
  return {
    /** An offset page, with its total. */
    page: (filter: FilterQuery<T>, sort: Record<string, 1 | -1>, request: PageRequest) =>
      findPage(model, filter, sort, request),
    /** The first `limit` documents matching in this order, with no skip: a keyset page (its filter starts it). */
    seek: (filter: FilterQuery<T>, sort: Record<string, 1 | -1>, limit: number): Promise<T[]> =>
      model.find(filter).sort(sort).limit(limit).lean<T[]>().exec(),
  };
}
