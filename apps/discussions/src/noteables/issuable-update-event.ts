import {
  EVENT_LIST_LIMITS,
  EVENT_TEXT_LIMITS,
  type IssuableChanges,
  type IssuableUpdatedData,
  type UserSummary,
} from '@gl/contracts';
import { createEvent, excerpt, type EventOrigin } from '@gl/service-kit';
import type { NoteableDoc } from './noteable.model';
import { targetData } from './noteable-documents';
import { actorOf } from '../common/access';

type Change<T> = { previous: T; current: T };

const sameSet = (a: readonly unknown[], b: readonly unknown[]) =>
  a.length === b.length && a.every((item) => b.includes(item));

/** `previous`/`current` of a scalar field the update changed, or undefined when it kept its value. */
function scalar<T>(before: T, after: T): Change<T> | undefined {
  return before === after ? undefined : { previous: before, current: after };
}

/**
 * A list field the update changed, compared as a set as GitLab compares the old associations with the new
 * (Issuable#to_hook_data), cut to `limit` entries so the event stays bounded.
 */
function list<T>(before: readonly T[], after: readonly T[], limit: number): Change<T[]> | undefined {
  if (sameSet(before, after)) return undefined;
  return { previous: before.slice(0, limit), current: after.slice(0, limit) };
}

const description = (text: string | null) =>
  text === null ? null : excerpt(text, EVENT_TEXT_LIMITS.issuableDescription);

/**
 * The hook-relevant fields the update changed, before and after (Issuable#to_hook_data's `changes`: the
 * record's previous_changes and the labels and assignees it had before). Absent keys kept their value.
 */
export function issuableChangesOf(before: NoteableDoc, after: NoteableDoc): IssuableChanges {
  const changes: IssuableChanges = {
    title: scalar(
      excerpt(before.title, EVENT_TEXT_LIMITS.title),
      excerpt(after.title, EVENT_TEXT_LIMITS.title),
    ),
    description:
      before.description === after.description
        ? undefined
        : { previous: description(before.description), current: description(after.description) },
    labels: list(before.labels, after.labels, EVENT_LIST_LIMITS.labels),
    assigneeIds: list(before.assigneeIds, after.assigneeIds, EVENT_LIST_LIMITS.people),
    reviewerIds:
      before.kind === 'MergeRequest'
        ? list(before.reviewerIds ?? [], after.reviewerIds ?? [], EVENT_LIST_LIMITS.people)
        : undefined,
    milestoneId: scalar(before.milestoneId, after.milestoneId),
    dueDate: scalar(before.dueDate ?? null, after.dueDate ?? null),
    confidential: scalar(before.confidential ?? false, after.confidential ?? false),
    weight: scalar(before.weight ?? null, after.weight ?? null),
    discussionLocked: scalar(before.discussionLocked ?? false, after.discussionLocked ?? false),
  };
  for (const key of Object.keys(changes) as (keyof IssuableChanges)[]) {
    if (changes[key] === undefined) delete changes[key];
  }
  return changes;
}

/**
 * The `…updated` event of an update that changed a hook-relevant field, or null when it changed none
 * (IssuableBaseService#update runs the `update` hooks for a saved change; a state change alone has its own
 * close/reopen/merge event). Written with the change, in the same outbox write.
 */
export function issuableUpdatedEvent(
  origin: EventOrigin,
  type: string | undefined,
  before: NoteableDoc,
  after: NoteableDoc,
  actor: UserSummary,
) {
  if (!type) return null;
  const changes = issuableChangesOf(before, after);
  if (Object.keys(changes).length === 0) return null;
  // Shown beside the fields it went with (Gitlab::HookData::IssuableBuilder's changes, previous_changes),
  // never alone: an update that changed nothing hooks show sends no hook.
  const updatedById = scalar(before.updatedById ?? null, after.updatedById ?? null);
  if (updatedById) changes.updatedById = updatedById;
  const data: IssuableUpdatedData = {
    ...targetData(after),
    changes,
    updatedAt: {
      previous: new Date(before.updatedAt).toISOString(),
      current: new Date(after.updatedAt).toISOString(),
    },
  };
  return createEvent(origin, {
    type,
    actor: actorOf(actor),
    projectId: after.projectId,
    groupId: after.groupId,
    data,
  });
}
