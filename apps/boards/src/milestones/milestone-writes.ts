import type { z } from 'zod';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  type EventEnvelope,
  type MilestoneDefinedData,
  type Principal,
  type ProjectMilestoneDefinedData,
  type TargetEventData,
  type createMilestoneBody,
  type updateMilestoneBody,
} from '@gl/contracts';
import {
  ConflictError,
  NotFoundError,
  createEvent,
  eventActor,
  excerpt,
  requestOrigin,
  type EventOrigin,
} from '@gl/service-kit';
import { milestoneEdit, type MilestoneEdit } from './milestone-edits';

export const SERVICE_PRODUCER = 'boards';
const { milestoneOpened, milestoneDefined, projectMilestoneDefined } = DOMAIN_EVENT_TYPES.boards;
/** Tries of an update that another write to the same milestone overtook (each reads it again). */
const UPDATE_TRIES = 5;

/** Where a milestone lives, as its events name it: a group (`groupId`) or a project (`projectId`). */
export type MilestoneParent = { groupId: number } | { projectId: number };

/** Who writes, for which request: what every milestone event carries. */
export interface EventWriter {
  user: Principal;
  requestId: string;
}

interface EventMilestone {
  _id: number;
  iid: number;
  title: string;
}

/** What a definition event tells of a milestone of either kind. */
interface DefinedMilestone extends EventMilestone {
  state: 'active' | 'closed';
  startDate: string | null;
  dueDate: string | null;
  revision?: number;
}

/** milestone.opened / closed / reopened, a group's or a project's alike but for the parent it names. */
export function milestoneTargetEvent(
  writer: EventWriter,
  type: string,
  milestone: EventMilestone,
  parent: MilestoneParent,
): EventEnvelope {
  const data: TargetEventData = {
    targetId: milestone._id,
    targetIid: milestone.iid,
    targetTitle: excerpt(milestone.title, EVENT_TEXT_LIMITS.title),
  };
  return createEvent(requestOrigin(SERVICE_PRODUCER, writer), {
    type,
    actor: eventActor(writer.user),
    ...parent,
    data,
  });
}

/**
 * The milestone as it is with this write, at the revision the write gives it: `gl.boards.milestone.defined`
 * for a group's, `gl.boards.project_milestone.defined` for a project's. The write that carries it applies
 * only at the revision it read (the stores' `update`), so the highest revision is always the milestone's
 * last state whatever the concurrent writes.
 */
export function milestoneDefinitionEvent(
  origin: EventOrigin,
  actor: EventEnvelope['actor'],
  milestone: DefinedMilestone,
  parent: MilestoneParent,
): EventEnvelope {
  const fields = {
    milestoneId: milestone._id,
    iid: milestone.iid,
    revision: milestone.revision ?? 0,
    title: excerpt(milestone.title, EVENT_TEXT_LIMITS.title),
    state: milestone.state,
    startDate: milestone.startDate,
    dueDate: milestone.dueDate,
  };
  const data: MilestoneDefinedData | ProjectMilestoneDefinedData = { ...fields, ...parent };
  const type = 'groupId' in parent ? milestoneDefined : projectMilestoneDefined;
  return createEvent(origin, { type, actor, ...parent, data });
}

/**
 * A writer's events on one kind of milestone; `parentOf` names the milestone's group or project, and
 * `kick` wakes the outbox relay of the collection that carries them.
 */
export function milestonePublishing<M extends DefinedMilestone>(
  writer: EventWriter,
  parentOf: (milestone: M) => MilestoneParent,
  kick: () => void,
): MilestonePublishing<M> {
  return {
    event: (type, m) => milestoneTargetEvent(writer, type, m, parentOf(m)),
    defined: (m) =>
      milestoneDefinitionEvent(
        requestOrigin(SERVICE_PRODUCER, writer),
        eventActor(writer.user),
        m,
        parentOf(m),
      ),
    kick,
  };
}

/** The milestone found, else the API's 404 Milestone Not Found. */
export function foundMilestone<M>(milestone: M | null): M {
  if (!milestone) throw new NotFoundError('Milestone');
  return milestone;
}

/** A new milestone's own fields, either kind: open, at revision 1 (Milestones::CreateService). */
function openedFields(params: z.infer<typeof createMilestoneBody>) {
  const now = new Date();
  return {
    title: params.title,
    description: params.description ?? '',
    state: 'active' as const,
    dueDate: params.due_date ?? null,
    startDate: params.start_date ?? null,
    createdAt: now,
    updatedAt: now,
    revision: 1,
  };
}

/** A change as an update writes it: the edit, its time and revision, and what the parent kind adds. */
export type RevisedFields<P> = MilestoneEdit['fields'] & { updatedAt: Date; revision: number } & P;

/** How one kind of milestone publishes a write: its events, and the relay woken once it is stored. */
export interface MilestonePublishing<M> {
  event: (type: string, milestone: M) => EventEnvelope;
  defined: (milestone: M) => EventEnvelope;
  /** Wakes the outbox relay once a write carrying events succeeded. */
  kick: () => void;
}

type OpenedFields = ReturnType<typeof openedFields>;

/**
 * Stores a new milestone of either kind, its own fields from the create parameters beside `placed` (its
 * ids and parent), with milestone.opened and its definition; `insert` answers null when the title is
 * taken (the unique index's answer to a concurrent create).
 */
export async function openMilestone<M, R>(
  params: z.infer<typeof createMilestoneBody>,
  placed: Omit<M, keyof OpenedFields>,
  publishing: MilestonePublishing<M>,
  insert: (doc: M, events: EventEnvelope[]) => Promise<R | null>,
  taken: () => Error,
): Promise<R> {
  const doc = { ...placed, ...openedFields(params) } as M;
  const created = await insert(doc, [publishing.event(milestoneOpened, doc), publishing.defined(doc)]);
  if (!created) throw taken();
  publishing.kick();
  return created;
}

/** How one kind of milestone is read, checked, published and written by an update. */
export interface MilestoneRevision<M extends DefinedMilestone, P> extends MilestonePublishing<M> {
  read: () => Promise<M>;
  /** Fields every update of this kind sets besides the edit (a project milestone's current group). */
  parentFields: P;
  /** Validations on the milestone as the update leaves it; throws. */
  check: (after: M, current: M) => Promise<void> | void;
  /** The milestone after the write, null when overtaken, 'taken' when its title is another's. */
  write: (current: M, changes: RevisedFields<P>, events: EventEnvelope[]) => Promise<M | null | 'taken'>;
  taken: () => Error;
}

/**
 * Milestones::UpdateService for a group or a project milestone: closing or reopening publishes
 * milestone.closed / milestone.reopened, and every change the milestone's definition. Applied at the
 * revision it read: a write that another overtook reads again.
 */
export async function reviseMilestone<M extends DefinedMilestone, P>(
  params: z.infer<typeof updateMilestoneBody>,
  kind: MilestoneRevision<M, P>,
): Promise<M> {
  for (let tries = 0; tries < UPDATE_TRIES; tries += 1) {
    const current = await kind.read();
    const { fields, stateEvent } = milestoneEdit(current, params);
    const changes: RevisedFields<P> = {
      updatedAt: new Date(),
      revision: (current.revision ?? 0) + 1,
      ...kind.parentFields,
      ...fields,
    };
    const after: M = { ...current, ...changes };
    await kind.check(after, current);
    const events = stateEvent ? [kind.event(stateEvent, after)] : [];
    events.push(kind.defined(after));
    const updated = await kind.write(current, changes, events);
    if (updated === 'taken') throw kind.taken();
    if (!updated) continue;
    kind.kick();
    return updated;
  }
  // The milestone is there (read found it) but every try was overtaken by another write.
  throw new ConflictError('Milestone was changed by another request, try again');
}
