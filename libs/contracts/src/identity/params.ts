import { z } from 'zod';

/**
 * Parameter primitives of the identity endpoints, typed the way Grape coerces them: a `String` parameter
 * takes a JSON number as its text, a `Date` takes any ISO date or timestamp and keeps the day.
 */
export const stringParam = z.preprocess(
  (value) => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : value),
  z.string(),
);

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
