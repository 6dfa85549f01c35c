import type { IssueEntity } from '@gl/contracts';
import type { NoteableDoc } from '../noteables/noteable.model';
import {
  issuableHeading,
  type IssuableHeading,
  milestoneOf,
  type IssuableExtras,
  labelsShown,
} from '../noteables/issuable.presenter';
import { iso, isoNow, references, type NamespaceView } from '../common/presenting';

export function presentIssue(doc: NoteableDoc, ns: NamespaceView, extras: IssuableExtras): IssueEntity {
  const incident = doc.issueType === 'incident';
  // The heading is extended, not spread: see issuableHeading.
  return Object.assign(issuableHeading(doc), {
    state: doc.state === 'closed' ? 'closed' : 'opened',
    created_at: isoNow(doc.createdAt),
    updated_at: isoNow(doc.updatedAt),
    closed_at: iso(doc.closedAt),
    closed_by: doc.closedBy ?? null,
    labels: labelsShown(doc, extras),
    milestone: milestoneOf(doc, extras.milestone),
    assignees: doc.assigneeIds.map((id) => ({ id })),
    author: doc.author,
    type: incident ? 'INCIDENT' : 'ISSUE',
    issue_type: incident ? 'incident' : 'issue',
    user_notes_count: extras.userNotesCount,
    upvotes: extras.votes?.upvotes ?? 0,
    downvotes: extras.votes?.downvotes ?? 0,
    confidential: doc.confidential,
    discussion_locked: doc.discussionLocked ?? null,
    due_date: doc.dueDate ?? null,
    relative_position: doc.relativePosition ?? null,
    web_url: `${ns.webUrl}/-/${incident ? 'issues/incident' : 'issues'}/${doc.iid}`,
    references: references('#', doc.iid!, ns.fullPath),
    ...(extras.weights && { weight: doc.weight ?? null }),
  } satisfies Omit<IssueEntity, keyof IssuableHeading>);
}
