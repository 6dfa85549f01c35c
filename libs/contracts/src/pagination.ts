import { z } from 'zod';
import { rubyInteger } from './primitives';

/**
 * Offset pagination: one rule for every list, in the contracts (`paginationQuery`) and in the services'
 * reader (`readPageRequest`, libs/service-kit), so every list answers the same `page` and `per_page`.
 *
 * GitLab declares them in lib/api/pagination_params.rb (`optional :page, type: Integer, default: 1` and
 * `optional :per_page, type: Integer, default: 20, except_values: [0]`) and pages with Kaminari's
 * `relation.page(params[:page]).per(params[:per_page])` (lib/gitlab/pagination/offset_pagination.rb):
 * - a value Grape's Integer coercion refuses (dry-types' `Integer(value, 10)`) is "<name> is invalid";
 * - an empty value stays '' (Grape's PrimitiveCoercer returns '' as is, and its default only replaces nil),
 *   which Kaminari reads as page 1 and, for per_page, ignores: the default;
 * - page 0 or less is the first page (Kaminari's `page(num)` offsets by max(num - 1, 0)), and a page past
 *   the end is an empty page however large, as Grape takes any integer;
 * - per_page 0 is "per_page has a value not allowed" (Grape's except_values message); a negative per_page
 *   is ignored by Kaminari's `per`, so the default; over 100 is 100 (Kaminari's max_per_page).
 * GitLab refuses page or per_page ≤ 0 with "<name> does not have a valid value" only behind the feature flag
 * `only_positive_pagination_values` (`verify_pagination_params!`, same file), which is off by default
 * (config/feature_flags/development/only_positive_pagination_values.yml, `default_enabled: false`).
 */

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

/**
 * The largest page number kept as asked: past it a page is read as this one. Any such page is past the
 * end of every list, and JavaScript numbers (and zod's `int()`) stop at 2^53 - 1.
 */
export const MAX_PAGE = Number.MAX_SAFE_INTEGER;

/** A parameter read as Grape and Kaminari read it: a number, `'default'` (absent or empty) or `'invalid'`. */
function readInteger(raw: unknown): number | 'default' | 'invalid' {
  if (raw === undefined || raw === null || raw === '') return 'default';
  return rubyInteger(raw) ?? 'invalid';
}

/** The page asked for, from 1 to MAX_PAGE; undefined when absent or empty, null when not an integer. */
export function pageNumberOf(raw: unknown): number | undefined | null {
  const value = readInteger(raw);
  if (value === 'invalid') return null;
  if (value === 'default') return undefined;
  return Math.min(Math.max(value, 1), MAX_PAGE);
}

/**
 * The page size asked for, at most MAX_PER_PAGE; undefined for the default (absent, empty or negative),
 * null when not an integer, 0 when 0 (refused).
 */
export function perPageOf(raw: unknown): number | undefined | null {
  const value = readInteger(raw);
  if (value === 'invalid') return null;
  if (value === 'default' || value < 0) return undefined;
  return Math.min(value, MAX_PER_PAGE);
}

export const PER_PAGE_ZERO_MESSAGE = 'per_page has a value not allowed';

/** The values as read, or GitLab's messages in declaration order (page, then per_page). */
export function readPagination(
  query: { page?: unknown; per_page?: unknown },
  defaultPerPage = DEFAULT_PER_PAGE,
): { page: number; perPage: number } | { errors: string[] } {
  const page = pageNumberOf(query.page);
  const perPage = perPageOf(query.per_page);
  const errors: string[] = [];
  if (page === null) errors.push('page is invalid');
  if (perPage === null) errors.push('per_page is invalid');
  if (perPage === 0) errors.push(PER_PAGE_ZERO_MESSAGE);
  if (errors.length > 0) return { errors };
  return { page: page ?? 1, perPage: perPage ?? Math.min(defaultPerPage, MAX_PER_PAGE) };
}

// A value that is not an integer goes on to z.number() as it came, which refuses it: "<name> is invalid".
const keepInvalid =
  (read: (raw: unknown) => number | undefined | null) =>
  (raw: unknown): unknown => {
    const value = read(raw);
    return value === null ? raw : value;
  };

/** `page`: the page number (≥ 1) as GitLab reads it; see above. */
export const pageParam = z.preprocess(keepInvalid(pageNumberOf), z.number().int().optional()).optional();

/** `per_page`: the page size (1 to 100, undefined for the default) as GitLab reads it; see above. */
export const perPageParam = z
  .preprocess(
    keepInvalid(perPageOf),
    z
      .number()
      .int()
      .refine((n) => n !== 0, { message: PER_PAGE_ZERO_MESSAGE })
      .optional(),
  )
  .optional();

/** GitLab's `use :pagination` (lib/api/pagination_params.rb): every list's `page` and `per_page`. */
export const paginationQuery = z.object({ page: pageParam, per_page: perPageParam });
