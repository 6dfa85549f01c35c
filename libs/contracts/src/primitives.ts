import { z } from 'zod';

/**
 * Request-parameter primitives that accept what real GitLab clients send: query strings and form fields
 * arrive as strings, python-gitlab sends `True`/`False`, go-gitlab and gitbeaker send JSON booleans.
 */

const TRUE_WORDS = new Set(['true', '1', 't', 'yes', 'y', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'f', 'no', 'n', 'off']);

/** Parses GitLab-style booleans case-insensitively; anything else is left for zod to reject as invalid. */
export function coerceBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : value;
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  return value;
}

export function coerceInteger(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value.trim());
  return value;
}

/** Ruby's `Integer(s, 10)`, which Grape's Integer coercion uses: optional blanks, a sign, digits with single underscores. */
const RUBY_INTEGER = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

/** A string or number read as Grape reads an Integer parameter; undefined when it is not one. */
export function rubyInteger(raw: unknown): number | undefined {
  // JSON bodies: Ruby's Integer() truncates a float.
  if (typeof raw === 'number') return Number.isFinite(raw) ? Math.trunc(raw) : undefined;
  if (typeof raw !== 'string' || !RUBY_INTEGER.test(raw)) return undefined;
  return Number(raw.replace(/_/g, '').trim()) || 0;
}

/**
 * A record's id or iid in a path (`requires :issue_iid, type: Integer` in GitLab's lib/api): every integer is
 * looked up, so 0, -1 or a 20-digit id gets the resource's 404 exactly as an unknown id does (Rails finds
 * nothing for an out-of-range integer); anything else is "<name> is invalid". An integer past 2^53 names no
 * record and is read as 0. Routes GitLab restricts to digits (`/users/:id`) refuse the rest as no route.
 */
export const recordIdParam = z.preprocess((raw) => {
  const id = rubyInteger(raw);
  if (id === undefined) return raw;
  return Number.isSafeInteger(id) ? id : 0;
}, z.number().int());

export const booleanParam = z.preprocess(coerceBoolean, z.boolean());
export const integerParam = z.preprocess(coerceInteger, z.number().int());
export const positiveIdParam = z.preprocess(coerceInteger, z.number().int().positive());

/** A comma-separated list (`labels=a,b`) or an array (`labels[]=a`) of strings. */
export const stringListParam = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : value,
  z.array(z.string()),
);

/** `iids[]=1&iids[]=2` or `iids=1,2` (CommaSeparatedToIntegerArray); one non-integer → "iids is invalid". */
export const iidsListParam = z.preprocess((value) => {
  const list = typeof value === 'string' ? value.split(',').filter(Boolean) : value;
  if (!Array.isArray(list)) return value;
  const iids = list.map(coerceInteger);
  return iids.every((iid) => Number.isInteger(iid)) ? iids : null;
}, z.array(z.number().int()));

export const isoTimestamp = z.string().describe('ISO 8601 UTC timestamp with milliseconds');
export const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .describe('YYYY-MM-DD');

/**
 * A date given as `YYYY-MM-DD` or an ISO 8601 date-time: the date as written is kept (Rails casts a
 * date-time to its date for a date column); empty or null clears it; anything else, or an impossible day,
 * is "<name> is invalid".
 */
export const dateOrDateTimeParam = z.preprocess((v) => {
  if (v === '' || v === null) return null;
  if (typeof v !== 'string') return v;
  const day = /^(\d{4}-\d{2}-\d{2})(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(
    v.trim(),
  )?.[1];
  const time = day ? Date.parse(`${day}T00:00:00Z`) : Number.NaN;
  return day && !Number.isNaN(time) && new Date(time).toISOString().startsWith(day) ? day : Number.NaN;
}, z.string().nullable());

export const ACCESS_LEVELS = {
  none: 0,
  guest: 10,
  reporter: 20,
  developer: 30,
  maintainer: 40,
  owner: 50,
} as const;
export const accessLevelValue = z.union([
  z.literal(10),
  z.literal(20),
  z.literal(30),
  z.literal(40),
  z.literal(50),
]);

export const visibility = z.enum(['private', 'internal', 'public']);
export type Visibility = z.infer<typeof visibility>;

export const tier = z.enum(['free', 'premium', 'ultimate']);
export type Tier = z.infer<typeof tier>;
