import { z } from 'zod';

/**
 * Parameter primitives of the identity endpoints, typed the way Grape coerces them: a `String` parameter
 * takes a JSON number as its text, a `Date` takes any ISO date or timestamp and keeps the day.
 */
export const stringParam = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

/**
 * The `:id` of a group, a project or a namespace (`requires :id, type: String`): its numeric id or its
 * URL-encoded full path, resolved by the gateway.
 */
export const namespaceIdParams = z.object({ id: z.string() });

function toDay(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  const match = /^(\d{4}-\d{2}-\d{2})(?:[T ].*)?$/.exec(text);
  return match ? match[1] : text;
}

/** Grape `type: Date` / `DateTime` stored as a day (GitLab keeps member and token expiry as dates). */
export const dayParam = z.preprocess(toDay, z.iso.date());

export const ORDER_DIRECTIONS = ['asc', 'desc'] as const;
export const sortParam = z.enum(ORDER_DIRECTIONS);

/**
 * Grape `Array[Integer]` with CommaSeparatedToIntegerArray: `skip_groups[]=1&skip_groups[]=2` or
 * `skip_groups=1,2`.
 */
export const integerListParam = z.preprocess((value: unknown): unknown => {
  const items: unknown[] =
    typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [value];
  const numbers = items.map((item) =>
    typeof item === 'number'
      ? item
      : typeof item === 'string' && /^\s*-?\d+\s*$/.test(item)
        ? Number(item)
        : NaN,
  );
  // One bad item makes the whole parameter invalid, as the coercion fails for the parameter.
  return numbers.every(Number.isInteger) ? numbers : value;
}, z.array(z.number().int()));
