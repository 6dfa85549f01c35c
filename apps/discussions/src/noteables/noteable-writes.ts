import type { UserSummary } from '@gl/contracts';
import { createEvent, type Counters, type EventOrigin } from '@gl/service-kit';
import type { NoteableDoc, NoteableKind } from './noteable.model';
import type { NoteablesStore } from './noteables.store';
import { blankNoteable, targetData } from './noteable-documents';
import { issuableUpdatedEvent } from './issuable-update-event';
import { assigneesChangeNote, reviewersChangeNote, titleChangeNote } from './system-notes';
import { actorOf } from '../common/access';
import { targetOfNoteable } from '../notes/note-target';
import type { NotesService } from '../notes/notes.service';
import type { MilestoneCopies } from '../copies/milestone-copies';
import type { ResourceEventsService, StateChange } from '../resource-events/resource-events.service';

/** Milestone#to_reference(format: :name) for group milestones: `%"title"`, or `%iid` when the title has a quote. */
function milestoneReference(milestone: { iid: number | null; title: string }): string {
  return milestone.title.includes('"') ? `%${milestone.iid}` : `%"${milestone.title}"`;
}

export interface IssueInput {
  title: string;
  description?: string;
  labels?: string[];
  milestone_id?: number;
  assignee_ids?: number[];
  issue_type?: 'issue' | 'incident';
  /** The caller may set it (`set_confidentiality`); the router drops it otherwise. */
  confidential?: boolean;
  /** `YYYY-MM-DD`; null removes it. */
  due_date?: string | null;
  /** Tiers with issue weights only (the router drops it elsewhere); null removes it. */
  weight?: number | null;
}

/** An update of an issue or merge request, as the routers pass it on. */
export interface IssueUpdate extends Partial<IssueInput> {
  state_event?: 'close' | 'reopen';
  /** The caller may lock discussions (`admin_issue`); the router drops it otherwise. */
  discussion_locked?: boolean;
  /** `set_issue_updated_at` (Owner, admins): the update's time instead of now. */
  updated_at?: Date | null;
  /** Merge requests: the reviewers, as the router filtered them. */
  reviewer_ids?: number[];
}

/** The fields an update of an issue or merge request may change. */
export type NoteableChanges = Partial<
  Pick<
    NoteableDoc,
    | 'title'
    | 'description'
    | 'labels'
    | 'milestoneId'
    | 'assigneeIds'
    | 'mergeCommitSha'
    | 'confidential'
    | 'dueDate'
    | 'discussionLocked'
    | 'issueType'
    | 'reviewerIds'
    | 'weight'
    | 'startDateFixed'
    | 'startDateIsFixed'
    | 'dueDateFixed'
    | 'dueDateIsFixed'
  >
>;

/** The changes an issue or merge request update asks for (`milestone_id: 0` removes the milestone). */
export function changesOf(input: IssueUpdate): NoteableChanges {
  return {
    title: input.title,
    description: input.description,
    labels: input.labels,
    milestoneId: input.milestone_id === undefined ? undefined : input.milestone_id || null,
    assigneeIds: input.assignee_ids,
    confidential: input.confidential,
    dueDate: input.due_date,
    discussionLocked: input.discussion_locked,
    issueType: input.issue_type,
    reviewerIds: input.reviewer_ids,
    weight: input.weight,
  };
}

/**
 * Domain event types of an update: its state change, and `update` for a change of hook-relevant fields
 * (issuable-update-event.ts); null for kinds that publish none (epics).
 */
export type StateEventTypes = { close: string; reopen: string; merge?: string; update?: string } | null;

export interface NoteableWritesDeps {
  counters: Counters;
  store: NoteablesStore;
  notes: Pick<NotesService, 'createSystemNote'>;
  milestoneCopies: Pick<MilestoneCopies, 'dueOf' | 'settle'>;
  resourceEvents: Pick<ResourceEventsService, 'eventsOf' | 'settle'>;
}

/**
 * What writing any noteable kind shares: a new one's ids, its insertion with its domain event, and an
 * update with the system notes GitLab writes for it.
 */
export function createNoteableWrites(deps: NoteableWritesDeps) {
  const { counters, store, notes, milestoneCopies, resourceEvents } = deps;

  async function insert(
    origin: EventOrigin,
    doc: NoteableDoc,
    type: string,
    extra: ReturnType<typeof createEvent>[] = [],
    /** `once`: a document already stored under the id (a redelivered event wrote it) is left as it is. */
    options: { once: boolean } = { once: false },
  ): Promise<NoteableDoc> {
    const event = createEvent(origin, {
      type,
      actor: actorOf(doc.author),
      projectId: doc.projectId,
      groupId: doc.groupId,
      data: targetData(doc),
    });
    // The labels, milestone and weight it starts with are resource events too (is_update: false).
    const pending = await resourceEvents.eventsOf(null, doc, doc.author, doc.createdAt, null);
    const stored = pending.length > 0 ? { ...doc, _resourceEvents: pending } : doc;
    if (options.once) {
      // Already stored by a redelivery: its own events were recorded with it, these are not.
      if (!(await store.insertOnce(stored, [event, ...extra]))) return doc;
    } else await store.insert(stored, [event, ...extra]);
    await resourceEvents.settle(doc._id, pending);
    return doc;
  }

  /** A new noteable: the next database id and, for kinds that have one, the next iid of its counter. */
  async function draft(
    kind: NoteableKind,
    iidCounter: string | null,
    author: UserSummary,
    title: string,
    fields: Partial<NoteableDoc>,
  ): Promise<NoteableDoc> {
    const id = await counters.next('noteable');
    const iid = iidCounter ? await counters.next(iidCounter) : null;
    return Object.assign(blankNoteable(kind, id, iid, author, title), fields);
  }

  /**
   * A new issue or merge request of a project (Issuable::BaseService): its project's next iid, and what
   * both kinds take from their input (description, labels, the milestone with its due date) before the
   * kind's own `fields`.
   */
  async function draftIssuable(
    kind: 'Issue' | 'MergeRequest',
    projectId: number,
    author: UserSummary,
    input: Pick<IssueInput, 'title' | 'description' | 'labels' | 'milestone_id'>,
    fields: Partial<NoteableDoc>,
  ): Promise<NoteableDoc> {
    const counter = `${kind === 'Issue' ? 'issues' : 'merge_requests'}:${projectId}`;
    return draft(kind, counter, author, input.title, {
      projectId,
      description: input.description ?? null,
      labels: input.labels ?? [],
      milestoneId: input.milestone_id || null,
      milestoneDue: await milestoneCopies.dueOf(input.milestone_id),
      ...fields,
    });
  }

  /** Stores a drafted issue or merge request with its event, then settles its milestone's due date on it. */
  async function insertIssuable(origin: EventOrigin, doc: NoteableDoc, type: string): Promise<NoteableDoc> {
    await insert(origin, doc, type);
    await milestoneCopies.settle(doc._id, doc.milestoneId, doc.milestoneDue ?? null);
    return doc;
  }

  async function milestoneNote(milestoneId: number | null): Promise<string> {
    if (!milestoneId) return 'removed milestone';
    const milestone = await store.milestone(milestoneId);
    return `changed milestone to ${milestone ? milestoneReference(milestone) : `%${milestoneId}`}`;
  }

  /**
   * Usernames of the given users, in that order, from the identity projection; the acting user is known
   * from the request. A user the projection has not seen yet is left out of the note.
   */
  async function usernames(ids: number[], actor: UserSummary): Promise<string[]> {
    if (ids.length === 0) return [];
    const byId = await store.usernames(ids);
    byId.set(actor.id, actor.username);
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async function assigneesNote(before: number[], after: number[], actor: UserSummary) {
    const added = after.filter((id) => !before.includes(id));
    const removed = before.filter((id) => !after.includes(id));
    return assigneesChangeNote(await usernames(added, actor), await usernames(removed, actor));
  }

  /** Applies field changes and a state event; writes GitLab's system notes; carries the state event. */
  async function update(
    origin: EventOrigin,
    doc: NoteableDoc,
    actor: UserSummary,
    changes: NoteableChanges,
    stateEvent: 'close' | 'reopen' | 'merge' | undefined,
    eventTypes: StateEventTypes,
    /** When the update happened: now, unless an Owner or admin says otherwise (`updated_at`). */
    at: Date | null = null,
  ): Promise<NoteableDoc> {
    const now = at ?? new Date();
    const set: Record<string, unknown> = { updatedAt: now };
    const systemNotes: string[] = [];
    let changed = false;
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) continue;
      set[key] = value;
      const was = (doc as unknown as Record<string, unknown>)[key] ?? null;
      if (JSON.stringify(value) !== JSON.stringify(was)) changed = true;
    }
    // GitLab's `updated_by` (IssuableBaseService#update): the user of an update that changed a field.
    if (changed) set.updatedById = actor.id;
    // The milestone's due date goes with it, for the milestone_due and priority orders.
    if (changes.milestoneId !== undefined)
      set.milestoneDue = await milestoneCopies.dueOf(changes.milestoneId);
    if (changes.title !== undefined && changes.title !== doc.title) {
      systemNotes.push(titleChangeNote(doc.title, changes.title));
    }
    if (changes.description !== undefined && changes.description !== doc.description) {
      systemNotes.push('changed the description');
    }
    if (changes.assigneeIds !== undefined) {
      const note = await assigneesNote(doc.assigneeIds, changes.assigneeIds, actor);
      if (note) systemNotes.push(note);
    }
    if (changes.reviewerIds !== undefined) {
      const before = doc.reviewerIds ?? [];
      const added = changes.reviewerIds.filter((id) => !before.includes(id));
      const removed = before.filter((id) => !changes.reviewerIds!.includes(id));
      const note = reviewersChangeNote(await usernames(added, actor), await usernames(removed, actor));
      if (note) systemNotes.push(note);
    }
    if (changes.milestoneId !== undefined && changes.milestoneId !== doc.milestoneId) {
      systemNotes.push(await milestoneNote(changes.milestoneId));
    }
    if (changes.confidential !== undefined && changes.confidential !== (doc.confidential ?? false)) {
      // SystemNoteService#change_issue_confidentiality.
      const what = doc.kind === 'Epic' ? 'epic' : 'issue';
      systemNotes.push(
        changes.confidential ? `made the ${what} confidential` : `made the ${what} visible to everyone`,
      );
    }
    if (
      changes.discussionLocked !== undefined &&
      changes.discussionLocked !== (doc.discussionLocked ?? false)
    ) {
      // SystemNoteService#discussion_lock.
      const what = doc.kind === 'MergeRequest' ? 'merge request' : 'issue';
      systemNotes.push(`${changes.discussionLocked ? 'locked' : 'unlocked'} the discussion in this ${what}`);
    }
    let eventType: string | null = null;
    let stateChange: StateChange = null;
    if (stateEvent === 'close' && doc.state === 'opened') {
      Object.assign(set, { state: 'closed', closedAt: now, closedBy: actor });
      systemNotes.push('closed');
      eventType = eventTypes?.close ?? null;
      stateChange = 'closed';
    } else if (stateEvent === 'reopen' && doc.state === 'closed') {
      Object.assign(set, { state: 'opened', closedAt: null, closedBy: null });
      systemNotes.push('reopened');
      eventType = eventTypes?.reopen ?? null;
      stateChange = 'reopened';
    } else if (stateEvent === 'merge' && doc.state === 'opened' && eventTypes?.merge) {
      Object.assign(set, { state: 'merged', mergedAt: now, mergedBy: actor });
      systemNotes.push('merged');
      eventType = eventTypes.merge ?? null;
      stateChange = 'merged';
    }
    const updated = { ...doc, ...set };
    const stateEvents = eventType
      ? [
          createEvent(origin, {
            type: eventType,
            actor: actorOf(actor),
            projectId: doc.projectId,
            groupId: doc.groupId,
            data: targetData(updated),
          }),
        ]
      : [];
    const fieldsEvent = issuableUpdatedEvent(origin, eventTypes?.update, doc, updated, actor);
    const events = fieldsEvent ? [...stateEvents, fieldsEvent] : stateEvents;
    // The resource events ride in the same write as the change (resource-event-changes.ts), then move out.
    const pending = await resourceEvents.eventsOf(doc, updated, actor, now, stateChange);
    await store.update(doc._id, set, events, pending);
    await resourceEvents.settle(doc._id, pending);
    if (changes.milestoneId !== undefined) {
      await milestoneCopies.settle(doc._id, changes.milestoneId, set.milestoneDue as string | null);
    }
    const target = targetOfNoteable(updated);
    for (const body of systemNotes) await notes.createSystemNote(origin, target, actor, body);
    return updated;
  }

  return { insert, draft, draftIssuable, insertIssuable, update };
}

export type NoteableWrites = ReturnType<typeof createNoteableWrites>;
