import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { isDuplicateKeyError } from '@gl/service-kit';

/**
 * Activity ids, and how far they are final. Ids grow with recording and every list sorts by them, but a
 * batch takes its ids before its events are written: with two replicas, ids 200-299 can be written while
 * 100-199 are still on their way, and a live reader that went on from 299 would never see 100-199. So a
 * writer takes its ids together with an open lease on them (one compare-and-set of this document), writes
 * its events, then closes the lease; `settled()` is the highest id below every open lease, and a live
 * reader reads no further than it: every id up to there is written, or will never be.
 *
 * A lease not renewed for LEASE_MS (its writer died) no longer holds readers back; the next writer
 * removes it. A writer whose lease was removed while it was writing (it stalled that long) cannot know
 * whether readers went past its ids, so it records its events again under new ids (activity.consumer.ts).
 */

/** The counters document ids were taken from before leases (its `value` goes on). */
const COUNTERS = 'counters';
const KEY = 'activities';
export const LEASE_MS = 60_000;
/** How often a writer renews its lease while its batch is being written. */
export const RENEW_MS = 10_000;
const ATTEMPTS = 200;

interface Lease {
  from: number;
  at: Date;
}

interface SequenceDoc {
  _id: string;
  value: number;
  /** Open leases by writer token. */
  open?: Record<string, Lease>;
}

export interface OpenLease {
  /** The first of the ids taken (`first`..`first + n - 1`). */
  first: number;
  token: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const isLive = (lease: Lease, now: number) => now - new Date(lease.at).getTime() < LEASE_MS;

export function createActivitySequence(connection: Connection) {
  const sequence = connection.collection<SequenceDoc>(COUNTERS);
  const leaseField = (token: string) => `open.${token}`;

  return {
    /** Takes `n` consecutive ids under a new open lease. */
    async open(n: number): Promise<OpenLease> {
      const token = randomUUID().replace(/-/g, '');
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const doc = await sequence.findOne({ _id: KEY });
        const now = new Date();
        const lease = { [leaseField(token)]: { from: (doc?.value ?? 0) + 1, at: now } };
        if (!doc) {
          try {
            await sequence.insertOne({ _id: KEY, value: n, open: { [token]: { from: 1, at: now } } });
            return { first: 1, token };
          } catch (err) {
            // Another writer created it first: take ids from it as it stands.
            if (!isDuplicateKeyError(err)) throw err;
            continue;
          }
        }
        const stale = Object.entries(doc.open ?? {})
          .filter(([, held]) => !isLive(held, now.getTime()))
          .map(([other]) => [leaseField(other), ''] as const);
        // Only `value` is compared: closing or renewing another lease does not make this one lose.
        const result = await sequence.updateOne(
          { _id: KEY, value: doc.value },
          {
            $set: { value: doc.value + n, ...lease },
            ...(stale.length > 0 && { $unset: Object.fromEntries(stale) }),
          },
        );
        if (result.modifiedCount === 1) return { first: doc.value + 1, token };
        await sleep(Math.random() * 3 * Math.min(attempt, 10));
      }
      throw new Error(`activity ids: ${ATTEMPTS} attempts to take ids lost the race`);
    },

    /** Keeps a lease open while its batch is still being written. */
    async renew(token: string): Promise<void> {
      await sequence.updateOne(
        { _id: KEY, [leaseField(token)]: { $exists: true } },
        { $set: { [`${leaseField(token)}.at`]: new Date() } },
      );
    },

    /** Closes a lease; false when it had been removed as stale (readers may have gone past its ids). */
    async close(token: string): Promise<boolean> {
      const result = await sequence.updateOne(
        { _id: KEY, [leaseField(token)]: { $exists: true } },
        { $unset: { [leaseField(token)]: '' } },
      );
      return result.modifiedCount === 1;
    },

    /** The highest id up to which every id is written or never will be. */
    async settled(): Promise<number> {
      const doc = await sequence.findOne({ _id: KEY });
      if (!doc) return 0;
      const now = Date.now();
      let settled = doc.value;
      for (const lease of Object.values(doc.open ?? {}))
        if (isLive(lease, now)) settled = Math.min(settled, lease.from - 1);
      return settled;
    },

    /** Moves the ids past `value` (a bulk load that wrote ids of its own). */
    async ensureAtLeast(value: number): Promise<void> {
      await sequence.updateOne({ _id: KEY }, { $max: { value } }, { upsert: true });
    },
  };
}

export type ActivitySequence = ReturnType<typeof createActivitySequence>;
