import type { Connection } from 'mongoose';
import { createWindowCounts, type WindowCounts } from '@gl/service-kit';

/**
 * The request counts every gateway replica shares (`throttle_counts` in the gateway's database): one
 * atomic `$inc` with upsert per counted request (service-kit's window counts).
 */
export function createThrottleStore(connection: Connection): WindowCounts {
  return createWindowCounts(connection, 'throttle_counts', 'ThrottleCount');
}

export type ThrottleStore = WindowCounts;
