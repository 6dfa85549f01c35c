import type { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  type EventEnvelope,
  type MilestoneDefinedData,
  type Principal,
  type TargetEventData,
  type createMilestoneBody,
  type listMilestonesQuery,
  type updateMilestoneBody,
} from '@gl/contracts';
import {
  ConflictError,
  ModelError,
  NotFoundError,
  createEvent,
  eventActor,
  excerpt,
  requestOrigin,
  type Outbox,
  type PageRequest,
} from '@gl/service-kit';
import type { MilestoneDoc } from './boards.models';
import type { MilestoneChanges, MilestonesStore } from './milestones.store';
import { milestoneEdit } from './milestone-edits';

export const SERVICE_PRODUCER = 'boards';
const { milestoneOpened, milestoneDefined } = DOMAIN_EVENT_TYPES.boards;
/** Tries of an update that another write to the same milestone overtook (each reads it again). */
const UPDATE_TRIES = 5;
const TAKEN = (): ModelError => ModelError.fields({ title: ['has already been taken'] });

/** Who writes, in which group, for which request: what the milestone events carry. */
export interface MilestoneWriter {
  user: Principal;
  groupId: number;
  requestId: string;
}

/** Milestone#start_date_should_be_less_than_due_date. */
function requireDateOrder(startDate: string | null, dueDate: string | null): void {
  if (startDate && dueDate && dueDate < startDate) {
    throw ModelError.fields({ due_date: ['must be greater than start date'] });
  }
}

function milestoneEvent(writer: MilestoneWriter, type: string, milestone: MilestoneDoc): EventEnvelope {
  const data: TargetEventData = {
    targetId: milestone._id,
    targetIid: milestone.iid,
    targetTitle: excerpt(milestone.title, EVENT_TEXT_LIMITS.title),
  };
  return createEvent(requestOrigin(SERVICE_PRODUCER, writer), {
    type,
    actor: eventActor(writer.user),
    groupId: writer.groupId,
    data,
  });
}

/**
 * `gl.boards.milestone.defined`: the milestone as it is with this write, at the next revision. The write
 * that carries it applies only at the revision it read (milestones.store.ts update), so the highest
 * revision is always the milestone's last state whatever the concurrent writes.
 */
export function milestoneDefinedEvent(
  origin: Parameters<typeof createEvent>[0],
  actor: EventEnvelope['actor'],
  milestone: MilestoneDoc,
): EventEnvelope {
  const data: MilestoneDefinedData = {
    milestoneId: milestone._id,
    groupId: milestone.groupId,
    iid: milestone.iid,
    revision: milestone.revision ?? 0,
    title: excerpt(milestone.title, EVENT_TEXT_LIMITS.title),
    state: milestone.state,
    startDate: milestone.startDate,
    dueDate: milestone.dueDate,
  };
  return createEvent(origin, { type: milestoneDefined, actor, groupId: milestone.groupId, data });
}

function definedEvent(writer: MilestoneWriter, milestone: MilestoneDoc): EventEnvelope {
  return milestoneDefinedEvent(requestOrigin(SERVICE_PRODUCER, writer), eventActor(writer.user), milestone);
}

/** Group milestones (lib/api/group_milestones.rb, Milestones::CreateService / UpdateService). */
export function createMilestonesService(milestones: MilestonesStore, outbox: Outbox) {
  function page(groupId: number, query: z.infer<typeof listMilestonesQuery>, page: PageRequest) {
    return milestones.page(groupId, query, page);
  }

  async function get(groupId: number, id: number): Promise<MilestoneDoc> {
    const milestone = await milestones.find(groupId, id);
    if (!milestone) throw new NotFoundError('Milestone');
    return milestone;
  }

  /** Opens a milestone; publishes milestone.opened. */
  async function create(
    writer: MilestoneWriter,
    params: z.infer<typeof createMilestoneBody>,
  ): Promise<MilestoneDoc> {
    requireDateOrder(params.start_date ?? null, params.due_date ?? null);
    const { groupId } = writer;
    if (await milestones.titleTaken(groupId, params.title)) throw TAKEN();
    const now = new Date();
    const doc: MilestoneDoc = {
      ...(await milestones.allocate(groupId)),
      groupId,
      title: params.title,
      description: params.description ?? '',
      state: 'active',
      dueDate: params.due_date ?? null,
      startDate: params.start_date ?? null,
      createdAt: now,
      updatedAt: now,
      revision: 1,
    };
    const events = [milestoneEvent(writer, milestoneOpened, doc), definedEvent(writer, doc)];
    if (!(await milestones.insert(doc, events))) throw TAKEN();
    outbox.kick(milestones.modelName);
    return doc;
  }

  /**
   * Changes a milestone; closing or reopening it publishes milestone.closed / milestone.reopened, and every
   * change milestone.defined. Applied at the revision it read: a write that another overtook reads again.
   */
  async function update(
    writer: MilestoneWriter,
    params: z.infer<typeof updateMilestoneBody>,
  ): Promise<MilestoneDoc> {
    for (let tries = 0; tries < UPDATE_TRIES; tries += 1) {
      const current = await get(writer.groupId, params.milestone_id);
      const { fields, stateEvent } = milestoneEdit(current, params);
      const changes: MilestoneChanges = {
        updatedAt: new Date(),
        revision: (current.revision ?? 0) + 1,
        ...fields,
      };
      const after: MilestoneDoc = { ...current, ...changes };
      requireDateOrder(after.startDate, after.dueDate);
      const events = stateEvent ? [milestoneEvent(writer, stateEvent, after)] : [];
      events.push(definedEvent(writer, after));
      const updated = await milestones.update(current._id, current.revision, changes, events);
      if (updated === 'taken') throw TAKEN();
      if (!updated) continue;
      outbox.kick(milestones.modelName);
      return updated;
    }
    // The milestone is there (get found it) but every try was overtaken by another write.
    throw new ConflictError('Milestone was changed by another request, try again');
  }

  return { page, get, create, update };
}

export type MilestonesService = ReturnType<typeof createMilestonesService>;
