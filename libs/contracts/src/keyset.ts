import { z } from 'zod';

/**
 * GitLab's keyset pagination ("Keyset-based pagination", doc/api/rest/index.md): `pagination=keyset` pages
 * by the order's key instead of by offset, where the list offers it. GitLab reads it as
 * `params[:pagination] == 'keyset'` (lib/api/helpers/pagination_strategies.rb) without declaring a set of
 * values, so any other value is offset pagination, as no value is.
 */
export const keysetPaginationParam = z
  .string()
  .optional()
  .describe('`keyset` pages by key (Link rel="next" only, no totals); anything else, offset pages');

/** The message of GitLab's 405 for an order a list cannot page by key (pagination_strategies.rb). */
export const KEYSET_UNAVAILABLE_MESSAGE = 'Keyset pagination is not yet available for this type of request';

/** Whether the request asks for keyset pagination (`params[:pagination] == 'keyset'`). */
export function wantsKeyset(query: { pagination?: unknown }): boolean {
  return query.pagination === 'keyset';
}
