import {
  EVENT_TEXT_LIMITS,
  type IssuableUpdatedData,
  type IssueEntity,
  type LabelDetailsEntity,
  type MergeRequestEntity,
} from '@gl/contracts';
import { excerpt } from '@gl/service-kit';
import { labelHookAttrs } from './issuable';
import { userEntityHookAttrs } from './project';

type Change<T> = { previous: T; current: T };

/**
 * A label of the change as Label#hook_attrs shows it: with the details the issuable's labels have for the
 * same title, else its title alone (a label it no longer has).
 */
function labelsChange(change: Change<string[]>, entity: IssueEntity | MergeRequestEntity, projectId: number) {
  const details = new Map<string, string | LabelDetailsEntity>();
  for (const label of entity.labels as (string | LabelDetailsEntity)[]) {
    details.set(typeof label === 'string' ? label : label.name, label);
  }
  const attrs = (titles: string[]) =>
    titles.map((title) => labelHookAttrs(details.get(title) ?? title, projectId));
  return { previous: attrs(change.previous), current: attrs(change.current) };
}

/** Users of the change as User#hook_attrs shows them, with what the issuable shows of the same user. */
function usersChange(change: Change<number[]>, known: { id: number }[]) {
  const attrs = (ids: number[]) =>
    ids.map((id) => userEntityHookAttrs(known.find((user) => user.id === id) ?? { id }));
  return { previous: attrs(change.previous), current: attrs(change.current) };
}

/**
 * The event carries description excerpts; the issuable read now shows the whole current description,
 * sent when it is still the one the event saw.
 */
function descriptionChange(change: Change<string | null>, current: string | null) {
  const unchangedSince =
    current !== null && excerpt(current, EVENT_TEXT_LIMITS.issuableDescription) === change.current;
  return { previous: change.previous, current: unchangedSince ? current : change.current };
}

/**
 * GitLab's `changes` of an update hook (Issuable#to_hook_data, app/models/concerns/issuable.rb, and
 * Gitlab::DataBuilder::Issuable#final_changes): each changed column as {previous, current} under its column
 * name; labels as Label#hook_attrs and assignees (reviewers) as User#hook_attrs lists.
 */
export function hookChangesOf(
  data: IssuableUpdatedData,
  entity: IssueEntity | MergeRequestEntity,
  projectId: number,
): Record<string, unknown> {
  const { changes } = data;
  const reviewers = 'reviewers' in entity ? entity.reviewers : [];
  return {
    ...(changes.updatedById && { updated_by_id: changes.updatedById }),
    updated_at: data.updatedAt,
    ...(changes.title && { title: changes.title }),
    ...(changes.description && {
      description: descriptionChange(changes.description, entity.description ?? null),
    }),
    ...(changes.milestoneId && { milestone_id: changes.milestoneId }),
    ...(changes.dueDate && { due_date: changes.dueDate }),
    ...(changes.confidential && { confidential: changes.confidential }),
    ...(changes.weight && { weight: changes.weight }),
    ...(changes.discussionLocked && { discussion_locked: changes.discussionLocked }),
    ...(changes.labels && { labels: labelsChange(changes.labels, entity, projectId) }),
    ...(changes.assigneeIds && { assignees: usersChange(changes.assigneeIds, entity.assignees) }),
    ...(changes.reviewerIds && { reviewers: usersChange(changes.reviewerIds, reviewers) }),
  };
}
