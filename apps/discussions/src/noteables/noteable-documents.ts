import { EVENT_TEXT_LIMITS, type EventActor, type TargetEventData, type UserSummary } from '@gl/contracts';
import { excerpt } from '@gl/service-kit';
import type { NoteableDoc, NoteableKind } from './noteable.model';
import { audienceOf } from '../common/access';

/** The activity target, with the audience the events service reads it with (as it is at this moment). */
export function targetData(doc: NoteableDoc): TargetEventData {
  return {
    targetId: doc._id,
    targetIid: doc.kind === 'Snippet' ? null : doc.iid,
    targetTitle: excerpt(doc.title, EVENT_TEXT_LIMITS.title),
    audience: audienceOf(doc),
  };
}

/** A user summary for event actors that only carry id, username and name (alert bot, incidents). */
export function summaryOfActor(actor: EventActor): UserSummary {
  const user = actor ?? { id: 0, username: 'alert-bot', name: 'GitLab Alert Bot' };
  return { ...user, state: 'active', locked: false, avatar_url: null, web_url: `/${user.username}` };
}

/** A new issue, merge request, snippet or epic with every field at its empty value. */
export function blankNoteable(
  kind: NoteableKind,
  id: number,
  iid: number | null,
  author: UserSummary,
  title: string,
): NoteableDoc {
  const now = new Date();
  return {
    _id: id,
    kind,
    projectId: null,
    groupId: null,
    iid,
    title,
    description: null,
    state: 'opened',
    labels: [],
    milestoneId: null,
    assigneeIds: [],
    author,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
    closedBy: null,
    mergedAt: null,
    mergedBy: null,
    issueType: null,
    alertId: null,
    sourceBranch: null,
    targetBranch: null,
    diffRefs: null,
    mergeCommitSha: null,
    fileName: null,
    content: null,
    visibility: null,
    confidential: false,
    subscriberIds: [],
  };
}
