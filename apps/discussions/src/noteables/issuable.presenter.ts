import type { IssueEntity, LabelDetailsEntity, UserSummary } from '@gl/contracts';
import type { MilestoneDoc } from '../copies/copies.models';
import type { LabelDetails } from '../copies/label-copies';
import type { NoteableDoc } from './noteable.model';

export function milestoneOf(doc: NoteableDoc, milestone: MilestoneDoc | null): IssueEntity['milestone'] {
  if (!doc.milestoneId) return null;
  return { id: doc.milestoneId, iid: milestone?.iid ?? null, title: milestone?.title ?? null };
}

/** What an issue or merge request shows besides its own document. */
export interface IssuableExtras {
  milestone: MilestoneDoc | null;
  userNotesCount: number;
  /** Its thumbsup and thumbsdown awards (`upvotes`, `downvotes`); none when absent. */
  votes?: { upvotes: number; downvotes: number };
  /** The tier has issue weights: the issue shows `weight` (EE::API::Entities::IssueBasic). */
  weights?: boolean;
  /** Summaries of the merge request's reviewers, where read (else they are shown by id). */
  users?: Map<number, UserSummary>;
  /** With `with_labels_details`: the labels its titles name, from the label copies. */
  labelDetails?: Map<string, LabelDetails>;
}

/**
 * The first fields of an issue or merge request, in the order GitLab's entities list them. Presenters
 * extend it with `Object.assign(issuableHeading(doc), {...})` rather than `{ ...issuableHeading(doc), ... }`:
 * on our Node (V8 11.3) every property added after a leading object spread builds a new hidden class,
 * about 1 µs each, 30 µs for an issue — measured, the largest self time in a page of issues.
 */
export type IssuableHeading = ReturnType<typeof issuableHeading>;

export function issuableHeading(doc: NoteableDoc) {
  return {
    id: doc._id,
    iid: doc.iid!,
    project_id: doc.projectId!,
    title: doc.title,
    description: doc.description,
  };
}

/**
 * An issue's or merge request's label titles as GitLab shows them: sorted (IssueBasic and MergeRequestBasic,
 * `labels.map(&:title).sort`), whatever order they were given in.
 */
export function sortedTitles(labels: string[]): string[] {
  return [...labels].sort();
}

/**
 * The `labels` an issue or merge request shows: sorted titles, or with `with_labels_details` each as
 * LabelBasic (`LabelBasic.represent(labels.sort_by(&:title))`); a title no copy knows by its title alone.
 */
export function labelsShown(doc: NoteableDoc, extras: IssuableExtras): string[] | LabelDetailsEntity[] {
  const titles = sortedTitles(doc.labels);
  const details = extras.labelDetails;
  if (!details) return titles;
  return titles.map(
    (name) =>
      details.get(name) ?? {
        id: null,
        name,
        color: null,
        description: null,
        description_html: null,
        text_color: null,
      },
  );
}
