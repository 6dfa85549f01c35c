import type { ActivityLogStore } from '../activity-log.store';
import { scopeFilter, streams } from '../activity-scopes';
import type { ActivitySequence } from '../activity-sequence';
import type { ActivityDoc } from '../events.models';

/**
 * The activity log as live readers read it: by id, never past the settled id (activity-sequence.ts), so a
 * reader that goes on from the last id it read misses nothing and sees nothing twice however many replicas
 * record (ids alone would not do: two replicas' batches may be written out of id order).
 */

/** Events read from a scope after an id, and the id to go on from. */
export interface TailRead {
  items: ActivityDoc[];
  next: number;
}

/** How far back (in events) a resumed client is replayed at most: an older Last-Event-ID replays from here. */
export const RESUME_SEARCH_LIMIT = 10_000;

export interface LiveLog {
  /** Every id up to this one is written, or never will be. */
  settled(): Promise<number>;
  /** Up to `max` events of a scope with ids in (after, upTo], oldest first, and where to go on. */
  read(stream: string, after: number, upTo: number, max: number): Promise<TailRead>;
  /**
   * Where a client resuming after `eventId` (its Last-Event-ID) goes on: after it, but no further back than
   * RESUME_SEARCH_LIMIT events of the scope, and no further on than the settled id (an id it cannot have
   * been sent).
   */
  resumeAfter(stream: string, eventId: number): Promise<number>;
}

export function createLiveLog(log: ActivityLogStore, sequence: ActivitySequence): LiveLog {
  return {
    settled: () => sequence.settled(),

    async read(stream, after, upTo, max) {
      if (upTo <= after) return { items: [], next: after };
      // All projects: the recent ids read by `_id` alone, events of no project left out here (few).
      const all = stream === streams.allProjects;
      const read = await log.readAfter(all ? {} : scopeFilter(stream), after, upTo, max);
      const next = read.length === max ? read.at(-1)!._id : upTo;
      return { items: all ? read.filter((a) => a.projectId !== null) : read, next };
    },

    async resumeAfter(stream, eventId) {
      const settled = await sequence.settled();
      if (eventId >= settled) return settled;
      // As in `read`: all projects by `_id` alone (the bound then counts the few events of no project too).
      const filter = stream === streams.allProjects ? {} : scopeFilter(stream);
      return Math.max(eventId, await log.idBefore(filter, settled, RESUME_SEARCH_LIMIT));
    },
  };
}
