import type { Model } from 'mongoose';
import type { Logger } from 'pino';
import { createBackgroundJob, type BackgroundJob } from '@gl/service-kit';
import { createActivityLogStore } from './activity-log.store';
import type { AuthorRemovalDoc, EventsModels } from './events.models';

/**
 * A deleted user's activity events are deleted, not shown as the Ghost User's: `events.author_id` was a
 * foreign key `ON DELETE CASCADE` (fk_edfd187b6f, db/structure.sql) until GitLab 16.7, and is now a loose
 * foreign key with `on_delete: async_delete` (config/gitlab_loose_foreign_keys.yml), carried out in the
 * background by LooseForeignKeys::CleanupWorker; Users::MigrateRecordsToGhostUserService moves issues,
 * merge requests, notes and snippets to the Ghost User, never events. So does this service: applying
 * `user.destroyed` records an order (author_removals), and this job carries it out: the author's events leave
 * the activity log, REMOVAL_BATCH per statement, and with it every list. An order is deleted only when that
 * is done, so a run cut short is carried out again.
 */

/** Records (again, on redelivery) that a deleted user's events are to be removed. */
export async function recordAuthorRemoval(removals: Model<AuthorRemovalDoc>, userId: number): Promise<void> {
  await removals.updateOne({ _id: userId }, { $set: { at: new Date() } }, { upsert: true });
}

/**
 * How long an order stays after its first run: another replica may have been recording one of the author's
 * events (checked before the deletion was applied) while the run read the log; a run after this finds it.
 */
export const AUTHOR_REMOVAL_GRACE_MS = 60_000;

/**
 * Carries out every recorded order, one pass at a time (a pass resolves how many events were removed);
 * woken when an order is recorded, and every interval for orders left by a pass that failed or a replay.
 */
export type AuthorRemovalJob = BackgroundJob<number>;

export function createAuthorRemovalJob(
  models: EventsModels,
  logger: Logger,
  /** Orders left by a run that failed (or by a replay) are taken up again at this interval. */
  intervalMs: number,
  graceMs: number = AUTHOR_REMOVAL_GRACE_MS,
  /** After a pass removed events: the feeds changed (resource versions). */
  afterChange?: () => Promise<void>,
): AuthorRemovalJob {
  const log = createActivityLogStore(models.activities);
  /** The run that ends the grace of the orders still in it. */
  let graceTimer: NodeJS.Timeout | null = null;

  /** Removes one deleted author's events from the log; resolves how many there were. */
  async function removeAuthor(authorId: number): Promise<number> {
    const began = Date.now();
    const removed = await log.removeAuthor(authorId);
    if (removed > 0)
      logger.info(
        { authorId, events: removed, ms: Date.now() - began },
        'deleted author: activity events removed',
      );
    return removed;
  }

  async function run(): Promise<number> {
    let removed = 0;
    let graceEnds = Infinity;
    const orders = await models.authorRemovals.find({}).sort({ _id: 1 }).lean<AuthorRemovalDoc[]>();
    for (const order of orders) {
      removed += await removeAuthor(order._id);
      const ends = order.at.getTime() + graceMs;
      // Recorded again meanwhile (a redelivery): `at` moved, and the order stays for another run.
      if (ends <= Date.now()) await models.authorRemovals.deleteOne({ _id: order._id, at: order.at });
      else graceEnds = Math.min(graceEnds, ends);
    }
    if (graceEnds < Infinity && !graceTimer) {
      graceTimer = setTimeout(() => {
        graceTimer = null;
        job.wake();
      }, graceEnds - Date.now());
      graceTimer.unref();
    }
    return removed;
  }

  // Orders left by a previous run are taken up a minute after start, like the other sweeps
  // (FIRST_RUN_DELAY_MS); a user.destroyed delivered meanwhile wakes the job at once.
  const job: AuthorRemovalJob = createBackgroundJob(run, {
    intervalMs,
    logger,
    failure: 'removing deleted authors’ events failed',
    ...(afterChange ? { afterChange } : {}),
    onStop: () => {
      if (graceTimer) clearTimeout(graceTimer);
      graceTimer = null;
    },
  });
  return job;
}
