import type { z } from 'zod';
import type {
  EventEnvelope,
  createMilestoneBody,
  listMilestonesQuery,
  updateMilestoneBody,
} from '@gl/contracts';
import { ModelError, type Outbox, type PageRequest } from '@gl/service-kit';
import type { MilestoneDoc } from '../boards.models';
import type { MilestonesStore } from './milestones.store';
import {
  foundMilestone,
  milestonePublishing,
  openMilestone,
  reviseMilestone,
  type EventWriter,
} from './milestone-writes';

const TAKEN = (): ModelError => ModelError.fields({ title: ['has already been taken'] });

/** Who writes, in which group, for which request: what the milestone events carry. */
export interface MilestoneWriter extends EventWriter {
  groupId: number;
}

/** Milestone#start_date_should_be_less_than_due_date. */
function requireDateOrder(startDate: string | null, dueDate: string | null): void {
  if (startDate && dueDate && dueDate < startDate) {
    throw ModelError.fields({ due_date: ['must be greater than start date'] });
  }
}

/** Group milestones (lib/api/group_milestones.rb, Milestones::CreateService / UpdateService). */
export function createMilestonesService(milestones: MilestonesStore, outbox: Outbox) {
  function publishing(writer: MilestoneWriter) {
    return milestonePublishing<MilestoneDoc>(
      writer,
      (m) => ({ groupId: m.groupId }),
      () => outbox.kick(milestones.modelName),
    );
  }

  function page(groupId: number, query: z.infer<typeof listMilestonesQuery>, page: PageRequest) {
    return milestones.page(groupId, query, page);
  }

  async function get(groupId: number, id: number): Promise<MilestoneDoc> {
    return foundMilestone(await milestones.find(groupId, id));
  }

  /** Opens a milestone; publishes milestone.opened. */
  async function create(
    writer: MilestoneWriter,
    params: z.infer<typeof createMilestoneBody>,
  ): Promise<MilestoneDoc> {
    requireDateOrder(params.start_date ?? null, params.due_date ?? null);
    const { groupId } = writer;
    if (await milestones.titleTaken(groupId, params.title)) throw TAKEN();
    const placed = { ...(await milestones.allocate(groupId)), groupId };
    const insert = async (doc: MilestoneDoc, events: EventEnvelope[]) =>
      (await milestones.insert(doc, events)) ? doc : null;
    return openMilestone<MilestoneDoc, MilestoneDoc>(params, placed, publishing(writer), insert, TAKEN);
  }

  /** Changes a milestone (reviseMilestone), checking the dates' order. */
  function update(
    writer: MilestoneWriter,
    params: z.infer<typeof updateMilestoneBody>,
  ): Promise<MilestoneDoc> {
    return reviseMilestone(params, {
      read: () => get(writer.groupId, params.milestone_id),
      parentFields: {},
      check: (after) => requireDateOrder(after.startDate, after.dueDate),
      ...publishing(writer),
      write: (current, changes, events) => milestones.update(current._id, current.revision, changes, events),
      taken: TAKEN,
    });
  }

  return { page, get, create, update };
}

export type MilestonesService = ReturnType<typeof createMilestonesService>;
