import { z } from 'zod';
import { EVENT_TEXT_LIMITS, calendarDay, noteCreatedData, targetEventData } from './domain.events';

/**
 * How many entries a list in an update event carries at most. People: Issuable's
 * MAX_NUMBER_OF_ASSIGNEES_OR_REVIEWERS (app/models/concerns/issuable.rb), which no issuable exceeds.
 * Labels: GitLab sets no number; 200 titles of at most 255 characters keep an event well inside the
 * broker's `max_payload`, and an issuable with more sends its first 200.
 */
export const EVENT_LIST_LIMITS = {
  people: 200,
  labels: 200,
} as const;

/** One changed field, as GitLab's hook `changes` give it (Gitlab::DataBuilder::Issuable#final_changes). */
const change = <T extends z.ZodTypeAny>(value: T) => z.object({ previous: value, current: value });

const labelTitles = z.array(z.string().max(EVENT_TEXT_LIMITS.title)).max(EVENT_LIST_LIMITS.labels);
const userIds = z.array(z.number().int()).max(EVENT_LIST_LIMITS.people);

/**
 * The fields of an issue or merge request an update changed that hooks show in `changes` (Issuable
 * #to_hook_data, app/models/concerns/issuable.rb, sliced to the builders' SAFE_HOOK_ATTRIBUTES), each with
 * its value before and after the update. Only the changed ones are present.
 */
export const issuableChanges = z
  .object({
    title: change(z.string().max(EVENT_TEXT_LIMITS.title)),
    /** Excerpts: the first EVENT_TEXT_LIMITS.issuableDescription characters (then "..."). */
    description: change(z.string().max(EVENT_TEXT_LIMITS.issuableDescription).nullable()),
    /** Label titles, as issues hold them. */
    labels: change(labelTitles),
    assigneeIds: change(userIds),
    /** Merge requests only. */
    reviewerIds: change(userIds),
    milestoneId: change(z.number().int().nullable()),
    dueDate: change(calendarDay.nullable()),
    confidential: change(z.boolean()),
    weight: change(z.number().int().nullable()),
    discussionLocked: change(z.boolean()),
    /** Who last updated it (GitLab's `updated_by_id`): present only beside another change. */
    updatedById: change(z.number().int().nullable()),
  })
  .partial();
export type IssuableChanges = z.infer<typeof issuableChanges>;

/**
 * `gl.discussions.issue.updated`, `gl.discussions.merge_request.updated`: an update changed at least one of
 * `changes` (a state change alone publishes its own event). The target as it is after the update, and
 * `updatedAt` before and after (hooks show `updated_at` among the changes, as GitLab's do). Bounded: a
 * title, two description excerpts and bounded lists.
 */
export const issuableUpdatedData = targetEventData.extend({
  changes: issuableChanges,
  updatedAt: change(z.string()),
});
export type IssuableUpdatedData = z.infer<typeof issuableUpdatedData>;

/**
 * `gl.discussions.note.updated`, `gl.discussions.note.deleted`: what `note.created` carries (the body an
 * excerpt, as it is after the edit or before the deletion) and what a Note Hook shows of a note that may be
 * gone by the time the hook is built.
 */
export const noteChangedData = noteCreatedData.extend({
  authorId: z.number().int(),
  updatedAt: z.string(),
});
export type NoteChangedData = z.infer<typeof noteChangedData>;
