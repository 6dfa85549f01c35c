import {
  DOMAIN_EVENT_TYPES,
  DURABLES,
  milestoneDefinedData,
  projectMilestoneDefinedData,
  projectMilestoneRemovedData,
  type MilestoneDefinedData,
  type ProjectMilestoneDefinedData,
  type ProjectMilestoneRemovedData,
} from '@gl/contracts';
import { eventData, type EventOrigin, type Subscription } from '@gl/service-kit';
import type { UserSummary } from '@gl/contracts';
import type { NoteableDoc } from '../noteables/noteable.model';
import { summaryOfActor } from '../noteables/noteable-documents';
import { SERVICE_PRODUCER } from '../common/origin';
import type { DiscussionsModels } from '../discussions.models';
import type { MilestoneDoc } from './copies.models';
import { subtreeOf } from './group-subtree';
import { upsertNewerRevision } from './revised-copies';
import type { MilestonesChanged } from './milestone-cache';

/**
 * Issues and merge requests re-dated per command when a milestone's due date changes. Each item costs
 * about 3 ms to rewrite on the local FerretDB (its document and every noteables index), and a command
 * holds the collection's write lock throughout: 200 keep another write's wait under a second.
 */
export const DUE_BATCH = 200;

/**
 * Most items one delivery of a milestone's definition re-dates (about 13 s here): the rest are left to
 * the re-dating job (milestone-redating.job.ts), so no delivery outlives the bus's 30 s wait for its
 * acknowledgement and the deliveries behind it do not wait for a large milestone.
 */
export const DUE_PER_DELIVERY = 4_000;

/**
 * Items of a deleted project milestone that leave it with their system note and resource event per
 * delivery (each an issue update, about 10 ms here); past it they lose the milestone without them, so one
 * delivery never outlives the bus's wait for its acknowledgement.
 */
export const LEAVES_PER_DELIVERY = 1_000;

/** Where a milestone's items can be: a group milestone's group (and subgroups), or a project milestone's project. */
export type MilestoneScope = { groupId: number } | { projectId: number };

/** The scope a copy records (null for a copy from milestone.opened only, which knows neither). */
export function scopeOfCopy(copy: Pick<MilestoneDoc, 'groupId' | 'projectId'>): MilestoneScope | null {
  if (copy.projectId !== undefined) return { projectId: copy.projectId };
  return copy.groupId !== undefined ? { groupId: copy.groupId } : null;
}

const BOARDS = DOMAIN_EVENT_TYPES.boards;

/**
 * Discussions' copy of the boards service's group milestones (`gl.boards.milestone.defined`) and the
 * milestone's due date each issue and merge request carries (`milestoneDue`), which the `milestone_due`
 * and `priority` orders read by index instead of joining milestones (Issuable.order_milestone_due_asc).
 */
export function createMilestoneCopies(
  models: Pick<DiscussionsModels, 'milestones' | 'noteables' | 'projects' | 'groups'>,
  /** Told after a copy is written, so the caches of the copies forget it (milestone-cache.ts). */
  changed: MilestonesChanged = () => {},
) {
  /** The due date an item of this milestone carries: null without a milestone, a copy or a date. */
  async function dueOf(milestoneId: number | null | undefined): Promise<string | null> {
    if (!milestoneId) return null;
    const copy = await models.milestones.findById(milestoneId).select({ dueDate: 1 }).lean<MilestoneDoc>();
    return copy?.dueDate ?? null;
  }

  /**
   * Gives the milestone's items its due date, up to `most` of them: the items not at it are found once,
   * along the list indexes of the group's projects (which carry `milestoneId`; an index led by the
   * milestone would tempt the planner into every item with a milestone for lists filtered on `Any`), then
   * re-dated a batch at a time, each batch one short command. Items already at the date are not found
   * again, so a repeated or interrupted pass resumes where it stopped. Returns how many it changed and
   * whether some are left.
   */
  async function spreadDue(
    milestoneId: number,
    scope: MilestoneScope,
    due: string | null,
    most = Infinity,
  ): Promise<{ changed: number; more: boolean }> {
    // A group milestone's items can be in the projects of the group and its subgroups.
    const projectIds =
      'projectId' in scope ? [scope.projectId] : (await subtreeOf(models, scope.groupId)).projectIds;
    const found = models.noteables
      .find({
        kind: { $in: ['Issue', 'MergeRequest'] },
        projectId: { $in: projectIds },
        milestoneId,
        milestoneDue: { $ne: due },
      })
      .select({ _id: 1 });
    const stale = await (Number.isFinite(most) ? found.limit(most + 1) : found).lean<{ _id: number }[]>();
    const now = stale.slice(0, most);
    for (let i = 0; i < now.length; i += DUE_BATCH) {
      const ids = now.slice(i, i + DUE_BATCH).map((item) => item._id);
      // Still of this milestone: an item moved to another one meanwhile keeps the date its write gave.
      await models.noteables.updateMany({ _id: { $in: ids }, milestoneId }, { $set: { milestoneDue: due } });
    }
    return { changed: now.length, more: stale.length > now.length };
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
   * brings up to `most` of the milestone's items to the date the copy has: also after a redelivery, so a
   * pass cut short by a crash is finished by the next delivery. Items left past `most` are recorded on the
   * copy (`redating`) for the re-dating job, which the caller wakes.
   */
  async function apply(
    data: MilestoneDefinedData | ProjectMilestoneDefinedData,
    most = DUE_PER_DELIVERY,
  ): Promise<{ changed: number; more: boolean }> {
    const { milestoneId, ...fields } = data;
    await upsertNewerRevision(models.milestones, milestoneId, fields);
    changed([milestoneId]);
    const scope = 'projectId' in data ? { projectId: data.projectId } : { groupId: data.groupId };
    const spread = await spreadDue(milestoneId, scope, await dueOf(milestoneId), most);
    if (spread.more) await models.milestones.updateOne({ _id: milestoneId }, { $set: { redating: true } });
    return spread;
  }

  /**
   * A project milestone gone (`gl.boards.project_milestone.removed`): deleted, its items lose it
   * (Milestones::DestroyService); merged by a promotion, they move to the group milestone
   * (Milestones::PromoteService's update_all) and take its date. Then the copy goes. Idempotent.
   */
  async function remove(data: ProjectMilestoneRemovedData): Promise<void> {
    const items = {
      kind: { $in: ['Issue', 'MergeRequest'] },
      projectId: data.projectId,
      milestoneId: data.milestoneId,
    };
    const target = data.mergedInto;
    const set =
      target === null
        ? { milestoneId: null, milestoneDue: null }
        : { milestoneId: target, milestoneDue: await dueOf(target) };
    await models.noteables.updateMany(items, { $set: set });
    await models.milestones.deleteOne({ _id: data.milestoneId });
    changed([data.milestoneId]);
  }

  /**
   * A deleted project milestone's items leave it one by one through `leave` (the issue update's system
   * note and resource event), up to LEAVES_PER_DELIVERY: an item left is not found again, so a repeated
   * delivery goes on where one stopped, and `remove` takes the milestone off whatever is left unnoted.
   */
  async function leaveEach(data: ProjectMilestoneRemovedData, leave: (doc: NoteableDoc) => Promise<unknown>) {
    const items = await models.noteables
      .find({
        kind: { $in: ['Issue', 'MergeRequest'] },
        projectId: data.projectId,
        milestoneId: data.milestoneId,
      })
      .limit(LEAVES_PER_DELIVERY)
      .lean<NoteableDoc[]>();
    for (const item of items) await leave(item);
    return items.length;
  }

  return { dueOf, spreadDue, settle, apply, remove, leaveEach };
}

export type MilestoneCopies = ReturnType<typeof createMilestoneCopies>;

/** How an item leaves a deleted milestone: the noteables service's update (noteables.service.ts). */
export interface MilestoneItems {
  leaveMilestone(origin: EventOrigin, doc: NoteableDoc, actor: UserSummary): Promise<unknown>;
}

/**
 * `gl.boards.milestone.defined` into the copy (its own durable: see DURABLES.discussionsMilestoneCopies).
 * A milestone with more items than one delivery re-dates is handed to the re-dating job (`redating`).
 */
export function milestoneCopiesProjection(
  copies: MilestoneCopies,
  redating: { wake(): void },
  items: MilestoneItems,
): Subscription {
  return {
    durable: DURABLES.discussionsMilestoneCopies,
    filterSubjects: [BOARDS.milestoneDefined, BOARDS.projectMilestoneDefined, BOARDS.projectMilestoneRemoved],
    async handle(event) {
      if (event.type === BOARDS.projectMilestoneRemoved) {
        const data = eventData(projectMilestoneRemovedData, event);
        // Deleted (not merged by a promotion, whose update_all writes no notes): each item as its update.
        if (data.mergedInto === null && event.actor) {
          const origin = { producer: SERVICE_PRODUCER, correlationId: event.correlationId };
          const actor = summaryOfActor(event.actor);
          await copies.leaveEach(data, (doc) => items.leaveMilestone(origin, doc, actor));
        }
        await copies.remove(data);
        return;
      }
      const data =
        event.type === BOARDS.projectMilestoneDefined
          ? eventData(projectMilestoneDefinedData, event)
          : eventData(milestoneDefinedData, event);
      const { more } = await copies.apply(data);
      if (more) redating.wake();
    },
  };
}
