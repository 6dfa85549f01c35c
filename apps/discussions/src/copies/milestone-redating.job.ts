import type { Logger } from 'pino';
import { createBackgroundJob, type BackgroundJob } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { MilestoneDoc } from './copies.models';
import { DUE_PER_DELIVERY, scopeOfCopy, type MilestoneCopies, type MilestoneScope } from './milestone-copies';

/** How often copies left `redating` (by a crash, or by a run cut short) are looked for again. */
export const REDATING_INTERVAL_MS = 60_000;

/** Brings the items of every copy marked `redating` to its due date; a pass resolves how many it changed. */
export type MilestoneRedatingJob = BackgroundJob<number>;

/**
 * Re-dates the items of a milestone whose due date changed, past what one delivery of its definition does
 * (milestone-copies.ts DUE_PER_DELIVERY). The delivery marks the copy `redating` and wakes this job, which
 * goes on in steps of the same size until no item of the milestone carries another date, then unmarks the
 * copy, unless its date changed meanwhile (then the next step re-dates to the new date). A run cut short
 * leaves the mark, and the next run (a wake, or the periodic look a minute after start) resumes: each step
 * finds only the items not yet at the date. Replicas may run it at once; the steps are conditional writes
 * of the same value. Before, the delivery failed on purpose to be redelivered, backing off up to a minute
 * between steps and holding back the deliveries behind it.
 */
export function createMilestoneRedatingJob(
  copies: MilestoneCopies,
  models: Pick<DiscussionsModels, 'milestones'>,
  logger: Logger,
  intervalMs = REDATING_INTERVAL_MS,
  step = DUE_PER_DELIVERY,
  /** After a run re-dated items: their answers changed (resource versions). */
  afterChange?: () => Promise<void>,
): MilestoneRedatingJob {
  async function redate(copy: MilestoneDoc, scope: MilestoneScope): Promise<number> {
    const began = Date.now();
    const due = copy.dueDate ?? null;
    let changed = 0;
    for (;;) {
      const spread = await copies.spreadDue(copy._id, scope, due, step);
      changed += spread.changed;
      if (!spread.more) break;
      logger.info({ milestoneId: copy._id, changed }, 'milestone due date: re-dating its items');
    }
    // Unmarked only at the date it spread: a newer date keeps the mark for the next run.
    await models.milestones.updateOne(
      { _id: copy._id, redating: true, dueDate: due },
      { $unset: { redating: '' } },
    );
    logger.info(
      { milestoneId: copy._id, changed, ms: Date.now() - began },
      'milestone due date: items re-dated',
    );
    return changed;
  }

  async function run(): Promise<number> {
    const marked = await models.milestones.find({ redating: true }).lean<MilestoneDoc[]>();
    let changed = 0;
    for (const copy of marked) {
      const scope = scopeOfCopy(copy);
      if (scope) changed += await redate(copy, scope);
    }
    return changed;
  }

  return createBackgroundJob(run, {
    intervalMs,
    logger,
    failure: 'milestone re-dating failed',
    ...(afterChange ? { afterChange } : {}),
  });
}
