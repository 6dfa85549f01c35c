import { z } from 'zod';
import type { ServiceName } from './route-table';

/** Every replica's base URL of each service the gateway forwards to. */
export type Upstreams = Record<ServiceName, readonly string[]>;

/**
 * A service's upstream setting: one URL, or several replicas' URLs separated by commas
 * (`http://127.0.0.1:3005,http://127.0.0.1:3015`). Blanks around entries and trailing slashes are dropped;
 * an empty entry or a duplicate is a configuration error, not a silently skipped replica.
 */
export const upstreamUrls = z
  .string()
  .transform((value) => value.split(',').map((entry) => entry.trim().replace(/\/+$/, '')))
  .pipe(
    z
      .array(z.string().url())
      .min(1)
      .refine((urls) => new Set(urls).size === urls.length, 'the same URL is listed twice'),
  );

/** Cycles through the items in order, one per call: requests spread evenly over a service's replicas. */
export function roundRobin<T>(items: readonly T[]): () => T {
  if (items.length === 0) throw new Error('roundRobin needs at least one item');
  let next = 0;
  return () => {
    const item = items[next]!;
    next = (next + 1) % items.length;
    return item;
  };
}
