/**
 * Hostile inputs for the fuzzer: values that once broke (or commonly break) an HTTP API. Each is a named,
 * deterministic value; the fuzzer's seeded generator picks which to send where.
 */

export { seededRandom } from '@gl/testing';

/** A Fisher–Yates shuffle of a copy. */
export function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** Path segments as sent (already percent-encoded where encoded): ids no resource has. */
export const HOSTILE_IDS: readonly string[] = [
  '%FF', // invalid UTF-8 once decoded
  '%C0%AE', // overlong encoding of "."
  '%', // a lone percent sign: malformed percent-encoding
  '%E0%A4%A', // truncated escape
  '..%2F..%2Fetc%2Fpasswd',
  '%2E%2E', // a dot-dot segment once decoded: must not address the parent route
  '..', // sent verbatim (node:http does not resolve dot segments)
  '.',
  '%00',
  'a%00b',
  '12345678901234567890', // beyond 2^53 and 2^64
  '-1',
  '0',
  '1e3',
  '0x10',
  '1.5',
  '%20',
  'null',
  '__proto__',
  'constructor',
  '%7B%24ne%3A1%7D', // {$ne:1}
  `${'9'.repeat(400)}`,
];

/** Regular expressions that backtrack catastrophically in a backtracking engine, and invalid ones. */
export const REGEX_BOMBS: readonly string[] = [
  '(a+)+$',
  '(a|aa)+$',
  '(.*a){25}',
  '([a-zA-Z]+)*$',
  '(a|a?)+b',
  '^(\\w+\\s?)*$',
  '(?<=a)b', // lookbehind: not RE2
  '(a)\\1', // backreference: not RE2
  '(',
  '[',
  '*',
  'a{99999}',
];

export const MB = 1024 * 1024;

/** A JSON text nested `depth` levels deep (arrays, or objects under the key `a`). */
export function deepJson(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Bytes that are not UTF-8 (a lone continuation byte, an overlong sequence, a surrogate half). */
export const INVALID_UTF8 = Buffer.from([
  0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0x22, 0x7d,
]);

/** Values of the wrong JSON type for a parameter of `type`. */
export function wrongTypes(type: string | undefined): unknown[] {
  switch (type) {
    case 'integer':
    case 'number':
      // 2 ** 64 serialises as a 20-digit integer (beyond int64), 1e300 far beyond any column.
      return ['abc', 1.5, -1, 2 ** 64, 1e300, '12345678901234567890', '1e3', true, [], {}, null, '', ' 1'];
    case 'boolean':
      return ['maybe', 2, [], {}, null, ''];
    case 'array':
      return ['x', 1, {}, [null], [[[]]], null];
    case 'object':
      return ['x', 1, [], null, { __proto__: { polluted: true } }];
    default:
      return [1, true, [], {}, null, ['a', 'b'], { $ne: null }, '\u0000', '\uD800', '%FF'];
  }
}

/** Keys that pollute prototypes when merged naively, and keys no endpoint knows. */
export const PROTOTYPE_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype', '$where', '$set'];

/** Query strings: duplicated, array-shaped and prototype-shaped parameters, a NUL, huge ones. */
export function hostileQueries(random: () => number): string[] {
  const long = 'q'.repeat(9 * 1024);
  return [
    'per_page=1&per_page=2&page=1&page=x',
    'page[]=1&page[]=2&per_page[a]=1',
    '__proto__[polluted]=1&constructor[prototype][polluted]=1',
    'search=%00',
    'search=a%00b&sort=%00',
    `search=${long}`,
    `x=${'y'.repeat(64 * 1024)}`,
    `${Array.from({ length: 2000 }, (_, i) => `k${i}=v`).join('&')}`,
    'per_page=-1&page=0',
    'per_page=1e3&page=12345678901234567890',
    'order_by=%FF&sort=%C0%AE',
    `state=${pick(random, ['all', '%', '%00', 'opened%00'])}`,
  ];
}
