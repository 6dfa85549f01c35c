import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Bus } from '@gl/service-kit';
import type { MilestoneDoc } from './copies.models';

/**
 * Core NATS, outside the event stream's subjects (`gl.>`): a flush concerns the replicas running now and is
 * no record to keep. What a replica misses while disconnected is covered by emptying its cache on reconnect
 * and by the entries' short life.
 */
export const MILESTONE_FLUSH_SUBJECT = 'cache.discussions.milestones.flush';

/** Longest an entry is trusted: the bound on staleness should a peer's flush be lost. */
export const MILESTONE_CACHE_TTL_MS = 30_000;

/**
 * The milestone copies issues and merge requests show (title and iid), kept in process: they change only
 * when boards defines a milestone, and every answer with a milestone read its copy (one command each).
 * The replica that writes a copy forgets it here at once and tells its peers (shareMilestoneCache), so the
 * next request after the event's handling sees the change on every replica.
 */
export function createMilestoneCache(
  read: (ids: number[]) => Promise<MilestoneDoc[]>,
  ttlMs = MILESTONE_CACHE_TTL_MS,
  now: () => number = Date.now,
) {
  const entries = new Map<number, { doc: MilestoneDoc | null; at: number }>();
  // Bumped by every forget: a read begun before it may have seen the old copy and is not kept.
  let generation = 0;

  function fresh(id: number): { doc: MilestoneDoc | null } | undefined {
    const entry = entries.get(id);
    if (!entry) return undefined;
    if (now() - entry.at <= ttlMs) return entry;
    entries.delete(id);
    return undefined;
  }

  async function many(ids: number[]): Promise<MilestoneDoc[]> {
    const wanted = [...new Set(ids)];
    const missing = wanted.filter((id) => fresh(id) === undefined);
    const found = new Map<number, MilestoneDoc>();
    if (missing.length > 0) {
      const started = generation;
      const docs = await read(missing);
      for (const doc of docs) found.set(doc._id, doc);
      if (started === generation) {
        const at = now();
        // Unknown ids are kept as such too: the copy that defines one later is announced like a change.
        for (const id of missing) entries.set(id, { doc: found.get(id) ?? null, at });
      }
    }
    return wanted.flatMap((id) => {
      const doc = found.get(id) ?? fresh(id)?.doc;
      return doc ? [doc] : [];
    });
  }

  return {
    many,
    async one(id: number): Promise<MilestoneDoc | null> {
      return (await many([id]))[0] ?? null;
    },
    forget(ids: number[]): void {
      generation += 1;
      for (const id of ids) entries.delete(id);
    },
    clear(): void {
      generation += 1;
      entries.clear();
    },
  };
}

export type MilestoneCache = ReturnType<typeof createMilestoneCache>;

/** Tells every replica's cache (this one's at once) that copies changed: called after the write. */
export type MilestonesChanged = (ids: number[]) => void;

/**
 * Joins this replica's milestone cache to its peers': each copy written here is forgotten here and
 * announced, each announcement (from any replica) forgets those ids here.
 */
export function shareMilestoneCache(
  cache: Pick<MilestoneCache, 'forget' | 'clear'>,
  bus: Pick<Bus, 'connection' | 'onReconnect'>,
  logger: Logger,
): { changed: MilestonesChanged; close(): void } {
  const self = randomUUID();
  const subscription = bus.connection.subscribe(MILESTONE_FLUSH_SUBJECT, {
    callback: (err, message) => {
      if (err) {
        logger.warn({ err: err.message }, 'milestone cache flushes: subscription failed');
        return;
      }
      try {
        const { from, ids } = message.json<{ from: string; ids: number[] }>();
        if (from !== self) cache.forget(ids);
      } catch {
        cache.clear();
      }
    },
  });
  // Announcements sent while this process was away were lost.
  bus.onReconnect(() => cache.clear());
  return {
    changed(ids) {
      cache.forget(ids);
      try {
        bus.connection.publish(MILESTONE_FLUSH_SUBJECT, JSON.stringify({ from: self, ids }));
      } catch (err) {
        // Peers keep the old copy at most the entries' life; nothing to retry here.
        logger.warn({ err: (err as Error).message }, 'milestone cache flush not announced');
      }
    },
    close: () => subscription.unsubscribe(),
  };
}
