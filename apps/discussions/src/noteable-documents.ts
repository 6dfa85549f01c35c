import { createHash } from 'node:crypto';
import { EVENT_TEXT_LIMITS, type EventActor, type TargetEventData, type UserSummary } from '@gl/contracts';
import { excerpt } from '@gl/service-kit';
import type { CommitDoc, NoteableDoc, NoteableKind } from './discussions.models';
import { accessTargetOf, audienceOf } from './discussions.access';
import type { NoteTarget } from './notes.service';

/** What discussions derive from a noteable or commit document alone: note targets, event data, blanks. */

export function targetOfNoteable(doc: NoteableDoc): NoteTarget {
  return {
    type: doc.kind,
    projectId: doc.projectId,
    groupId: doc.groupId,
    noteableId: doc._id,
    noteableIid: doc.kind === 'Issue' || doc.kind === 'MergeRequest' ? doc.iid : null,
    commitSha: null,
    title: doc.title,
    authorId: doc.author.id,
    access: accessTargetOf(doc),
  };
}

export function targetOfCommit(commit: CommitDoc): NoteTarget {
  return {
    type: 'Commit',
    projectId: commit.projectId,
    groupId: null,
    noteableId: null,
    noteableIid: null,
    commitSha: commit._id,
    title: commit.title,
    // A commit's author is a name and e-mail, not an account: nobody resolves as "the noteable's author".
    authorId: -1,
    access: { kind: 'Code' },
  };
}

/** The activity target, with the audience the events service reads it with (as it is at this moment). */
export function targetData(doc: NoteableDoc): TargetEventData {
  return {
    targetId: doc._id,
    targetIid: doc.kind === 'Snippet' ? null : doc.iid,
    targetTitle: excerpt(doc.title, EVENT_TEXT_LIMITS.title),
    audience: audienceOf(doc),
  };
}

/**
 * The key of a label in `labelSet`: its name in hex, so any name (dots, dollars) is one plain field.
 * Lists filter on `labelSet.<key>` and `labelCount`, scalars the database answers by SQL on the local
 * FerretDB, where a condition on the `labels` array is checked document by document (seconds for a
 * board of 10,000 issues; issuables.finder.ts).
 */
export function labelKey(label: string): string {
  return `l${Buffer.from(label, 'utf8').toString('hex')}`;
}

/**
 * The label keys as one string of words, ` <key> <key> ` (a space before and after each), for the board
 * columns: a label is the literal ` <key> ` in it, which the local FerretDB checks on an index entry
 * (patch 0008), where `labelSet.<key>` is read from each document (board-columns.ts).
 */
export function labelKeyWords(labels: string[]): string {
  return ` ${labels.map((label) => `${labelKey(label)} `).join('')}`;
}

/** What a document stores beside `labels` for the lists' label filters. */
export function labelFields(labels: string[]): {
  labelSet: Record<string, true>;
  labelCount: number;
  labelKeys: string;
} {
  return {
    labelSet: Object.fromEntries(labels.map((label) => [labelKey(label), true as const])),
    labelCount: labels.length,
    labelKeys: labelKeyWords(labels),
  };
}

/** A user summary for event actors that only carry id, username and name (alert bot, incidents). */
export function summaryOfActor(actor: EventActor): UserSummary {
  const user = actor ?? { id: 0, username: 'alert-bot', name: 'GitLab Alert Bot' };
  return { ...user, state: 'active', locked: false, avatar_url: null, web_url: `/${user.username}` };
}

/** Branches never pushed still need SHAs for diff_refs: a stable stand-in per project and branch. */
export function placeholderSha(projectId: number, branch: string): string {
  return createHash('sha1').update(`branch-${projectId}-${branch}`).digest('hex');
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
  };
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

export interface MergeRequestInput extends Pick<
  IssueInput,
  'title' | 'description' | 'labels' | 'milestone_id'
> {
  source_branch: string;
  target_branch: string;
  /** As the router filtered them (issuable-reviewers.ts). */
  reviewer_ids?: number[];
}

export interface IssueUpdate extends Partial<IssueInput> {
  state_event?: 'close' | 'reopen';
  /** The caller may lock discussions (`admin_issue`); the router drops it otherwise. */
  discussion_locked?: boolean;
  /** `set_issue_updated_at` (Owner, admins): the update's time instead of now. */
  updated_at?: Date | null;
  /** Merge requests: the reviewers, as the router filtered them. */
  reviewer_ids?: number[];
}
