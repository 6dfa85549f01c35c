import { DOMAIN_EVENT_TYPES, DURABLES, milestoneDefinedData, type MilestoneDefinedData } from '@gl/contracts';
import { eventData, isDuplicateKeyError, type Subscription } from '@gl/service-kit';
import type { DiscussionsModels, MilestoneDoc } from './discussions.models';

/** Issues and merge requests re-dated per command when a milestone's due date changes. */
export const DUE_BATCH = 1_000;

/**
 * Discussions' copy of the boards service's group milestones (`gl.boards.milestone.defined`) and the
 * milestone's due date each issue and merge request carries (`milestoneDue`), which the `milestone_due`
 * and `priority` orders read by index instead of joining milestones (Issuable.order_milestone_due_asc).
 */
export function createMilestoneCopies(models: Pick<DiscussionsModels, 'milestones' | 'noteables'>) {
  /** The due date an item of this milestone carries: null without a milestone, a copy or a date. */
  async function dueOf(milestoneId: number | null | undefined): Promise<string | null> {
    if (!milestoneId) return null;
    const copy = await models.milestones.findById(milestoneId).select({ dueDate: 1 }).lean<MilestoneDoc>();
    return copy?.dueDate ?? null;
  }

  /**
   * Gives every item of the milestone its due date, a batch at a time (each batch one short command on
   * the local database, whose lock a single update of every item would hold for long). Items already at
   * the date are not read again, so a repeated or interrupted pass resumes. Returns how many it changed.
   */
  async function spreadDue(milestoneId: number, due: string | null): Promise<number> {
    let changed = 0;
    for (;;) {
      const stale = await models.noteables
        .find({ milestoneId, milestoneDue: { $ne: due } })
        .select({ _id: 1 })
        .limit(DUE_BATCH)
        .lean<{ _id: number }[]>();
      if (stale.length === 0) return changed;
      // Still of this milestone: an item moved to another one meanwhile keeps the date its write gave.
      await models.noteables.updateMany(
        { _id: { $in: stale.map((item) => item._id) }, milestoneId },
        { $set: { milestoneDue: due } },
      );
      changed += stale.length;
    }
  }

  /**
   * After an item was written with a milestone and the due date read then: the copy may have changed
   * between the read and the write, its pass (spreadDue) missing the item not yet of the milestone. Read
   * again after the write: either that pass saw the item, or this read sees the new date.
   */
  async function settle(itemId: number, milestoneId: number | null, written: string | null): Promise<void> {
    if (!milestoneId) return;
    const due = await dueOf(milestoneId);
    if (due === written) return;
    await models.noteables.updateOne({ _id: itemId, milestoneId }, { $set: { milestoneDue: due } });
  }

  /**
   * Keeps the newest definition (the highest revision; older and redelivered ones change nothing), then
   * brings the milestone's items to the date the copy has: also after a redelivery, so a pass cut short
   * by a crash is finished by the next delivery.
   */
  async function apply(data: MilestoneDefinedData): Promise<{ changed: number }> {
    const { milestoneId, ...fields } = data;
    try {
      await models.milestones.updateOne(
        { _id: milestoneId, $or: [{ revision: null }, { revision: { $lt: data.revision } }] },
        { $set: fields },
        { upsert: true },
      );
    } catch (err) {
      // The upsert met a stored newer revision (duplicate _id): the copy is already newer.
      if (!isDuplicateKeyError(err)) throw err;
    }
    return { changed: await spreadDue(milestoneId, await dueOf(milestoneId)) };
  }

  return { dueOf, spreadDue, settle, apply };
}

export type MilestoneCopies = ReturnType<typeof createMilestoneCopies>;

/** `gl.boards.milestone.defined` into the copy (its own durable: see DURABLES.discussionsMilestoneCopies). */
export function milestoneCopiesProjection(copies: MilestoneCopies): Subscription {
  return {
    durable: DURABLES.discussionsMilestoneCopies,
    filterSubjects: [DOMAIN_EVENT_TYPES.boards.milestoneDefined],
    async handle(event) {
      await copies.apply(eventData(milestoneDefinedData, event));
    },
  };
}
