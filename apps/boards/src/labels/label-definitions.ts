import type { Model } from 'mongoose';
import {
  DOMAIN_EVENT_TYPES,
  EVENT_TEXT_LIMITS,
  type EventEnvelope,
  type LabelDefinedData,
} from '@gl/contracts';
import { ConflictError, createEvent, excerpt, pushEvents, withEvents, type Outbox } from '@gl/service-kit';
import type { LabelFields } from '../boards.models';
import { insertOrTaken, updateOrTaken } from '../common/unique-writes';
import { textColorFor } from './labels.presenter';

/** Where a label lives, as its events name it: a group (`groupId`) or a project (`projectId`). */
export type LabelParent = { groupId: number } | { projectId: number };

/** Tries of an update that another write to the same label overtook (each reads it again). */
const UPDATE_TRIES = 5;

interface LabelChange {
  /** The title before this write (an update), for consumers that have no copy of the label yet. */
  previousTitle?: string;
  deleted?: boolean;
  /** A project label merged by a promotion into this group label. */
  mergedInto?: number | null;
}

/**
 * `gl.boards.label.defined` for a label as a write leaves it. Who wrote it is not part of a definition
 * (its consumers keep copies), so it carries no actor. Title and description are cut to the event's bounds.
 */
export function labelDefinedEvent(
  label: LabelFields,
  parent: LabelParent,
  change: LabelChange = {},
): EventEnvelope {
  const data: LabelDefinedData = {
    labelId: label._id,
    groupId: 'groupId' in parent ? parent.groupId : null,
    projectId: 'projectId' in parent ? parent.projectId : null,
    revision: label.revision ?? 0,
    deleted: change.deleted ?? false,
    mergedInto: change.mergedInto ?? null,
    title: excerpt(label.name, EVENT_TEXT_LIMITS.title),
    previousTitle:
      change.previousTitle === undefined ? null : excerpt(change.previousTitle, EVENT_TEXT_LIMITS.title),
    color: label.color,
    textColor: textColorFor(label.color),
    description:
      label.description === null ? null : excerpt(label.description, EVENT_TEXT_LIMITS.labelDescription),
  };
  return createEvent(
    { producer: 'boards', correlationId: null },
    { type: DOMAIN_EVENT_TYPES.boards.labelDefined, actor: null, ...parent, data },
  );
}

/**
 * The writes of one kind of label (group or project), each carrying the label's definition in the same
 * atomic write (the outbox relays it): a revision counted per label orders them for consumers, and an
 * update is applied at the revision it read, so two concurrent updates cannot publish one revision twice.
 */
export function labelWrites<T extends LabelFields>(
  model: Model<T>,
  outbox: Outbox,
  parentOf: (label: T) => LabelParent,
) {
  /** The new label at revision 1, or 'taken' when its parent already has one of that title. */
  async function insert(doc: T): Promise<T | 'taken'> {
    const stored: T = { ...doc, revision: 1 };
    const written = await insertOrTaken(
      model,
      withEvents(stored, [labelDefinedEvent(stored, parentOf(stored))]),
    );
    if (written === 'taken') return 'taken';
    outbox.kick(model);
    return stored;
  }

  /** The label after the change, null when it is gone, 'taken' when the new title is another label's. */
  async function revise(id: number, changes: Partial<T>): Promise<T | null | 'taken'> {
    for (let tries = 0; tries < UPDATE_TRIES; tries += 1) {
      const current = await model.findById(id).lean<T>();
      if (!current) return null;
      const revision = (current.revision ?? 0) + 1;
      const after: T = { ...current, ...changes, revision };
      const event = labelDefinedEvent(after, parentOf(after), { previousTitle: current.name });
      const updated = await updateOrTaken(
        model,
        { _id: id, revision: current.revision ?? null },
        pushEvents({ $set: { ...changes, revision } }, [event]),
      );
      if (updated === null) continue;
      if (updated !== 'taken') outbox.kick(model);
      return updated;
    }
    throw new ConflictError('Label was changed by another request, try again');
  }

  /** Deletes the label with its last definition (deleted, or merged into a group label by a promotion). */
  async function remove(id: number, mergedInto: number | null = null): Promise<void> {
    const current = await model.findById(id).lean<T>();
    if (!current) return;
    const gone: T = { ...current, revision: (current.revision ?? 0) + 1 };
    const event = labelDefinedEvent(gone, parentOf(gone), { deleted: true, mergedInto });
    await outbox.deleteWithEvents(model, id, [event]);
  }

  return { insert, revise, remove };
}
