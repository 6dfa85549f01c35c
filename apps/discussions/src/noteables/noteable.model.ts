import { Schema } from 'mongoose';
import type { NoteableTypeName, UserSummary } from '@gl/contracts';
import { addOutboxFields, documentSchema } from '@gl/service-kit';

export type NoteableKind = Exclude<NoteableTypeName, 'Commit'>;

export interface DiffRefs {
  baseSha: string;
  headSha: string;
  startSha: string;
}

/** Issues, merge requests, snippets and epics share one collection; `kind` tells them apart. */
export interface NoteableDoc {
  _id: number;
  kind: NoteableKind;
  projectId: number | null;
  groupId: number | null;
  iid: number | null;
  title: string;
  description: string | null;
  state: 'opened' | 'closed' | 'merged';
  labels: string[];
  milestoneId: number | null;
  assigneeIds: number[];
  author: UserSummary;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  closedBy: UserSummary | null;
  mergedAt: Date | null;
  mergedBy: UserSummary | null;
  issueType: 'issue' | 'incident' | null;
  alertId: string | null;
  sourceBranch: string | null;
  targetBranch: string | null;
  diffRefs: DiffRefs | null;
  mergeCommitSha: string | null;
  fileName: string | null;
  content: string | null;
  visibility: 'private' | 'internal' | 'public' | null;
  /**
   * Snippets: every file, in order (`fileName` and `content` repeat the first). Absent on snippets written
   * before snippets had several files: their one file is `fileName` and `content`.
   */
  snippetFiles?: { path: string; content: string }[] | null;
  confidential: boolean;
  /** Issues: `YYYY-MM-DD` or null (absent on documents written before it existed). */
  dueDate?: string | null;
  /**
   * Issues and merge requests: their milestone's due date (`YYYY-MM-DD`), or null without a milestone or
   * a due date on it, for the `milestone_due` and `priority` orders. Set with the milestone, and again on
   * every issue of a milestone whose copy changes (milestone-copies.ts).
   */
  milestoneDue?: string | null;
  /**
   * Issues: RelativePositioning's place among the issues of `positionScope` (relative-position.ts); null
   * or absent until it has one.
   */
  relativePosition?: number | null;
  /** Issues: where positions are compared: `g<root group id>`, or `p<project id>` outside groups. */
  positionScope?: string | null;
  /** Issues and merge requests: null until someone locks or unlocks the discussion (Entities::Issue shows null). */
  discussionLocked?: boolean | null;
  /** Merge requests: the users asked to review it (absent on documents written before reviewers existed). */
  reviewerIds?: number[];
  /** Issues, on the tiers with issue weights: a weight ≥ 0, or null (absent: none). */
  weight?: number | null;
  /**
   * Issues and merge requests: who last changed a field through an update (GitLab's `updated_by_id`, set
   * by IssuableBaseService#update); null or absent until then. Hooks show its change (issuable-update-event.ts).
   */
  updatedById?: number | null;
  /** Epics: the fixed dates (`YYYY-MM-DD`) and whether they are the epic's dates (absent: not fixed). */
  startDateFixed?: string | null;
  startDateIsFixed?: boolean;
  dueDateFixed?: string | null;
  dueDateIsFixed?: boolean;
  /** `labels` again as `{<labelKey>: true}` and their number, for the list filters (labelFields). */
  labelSet?: Record<string, true>;
  labelCount?: number;
  /** The same keys as words, ` <key> <key> `, for the list and column indexes (labelKeyWords). */
  labelKeys?: string;
  /** `assigneeIds` as words, ` u<id> u<id> `, for the same indexes (assigneeKeyWords). */
  assigneeKeys?: string;
  /**
   * Issues and merge requests: their thumbsup awards (GitLab's `upvotes_count`), counted again on each
   * vote by award-emoji.service.ts; absent when none, so it sorts like GitLab's 0 (issuable-order.ts).
   */
  upvotesCount?: number;
  /** Issues and merge requests: their thumbsdown awards (GitLab's `downvotes`), kept like `upvotesCount`. */
  downvotesCount?: number;
  /**
   * GitLab's user_notes_count kept on the noteable (notes/note-counts.ts): its comments that are not
   * internal, and its internal ones (counted only for who reads them). Lists showed them from one grouped
   * count over the page's notes per page, as GitLab's `issuable_meta_data` does.
   */
  userNotesCount?: number;
  internalNotesCount?: number;
  /**
   * Issues: absent when the issue was never linked to an epic, so its answers need not look for a link
   * (epics/epic-issues.ts sets it before writing any link and never clears it: a stale `true` costs the
   * lookup it saves, a missing one would hide the epic).
   */
  mayHaveEpic?: boolean;
  /**
   * Users who may have an explicit subscription choice on it (issuable-subscriptions.ts `set` lists a user
   * before it writes their choice): a caller not listed has made none, so `subscribed` is decided without
   * reading the subscriptions. `[]` on noteables created since it exists; absent on older ones and on those
   * where more users chose than are tracked, whose choices are read as before. A stale entry costs the read
   * it saves, a missing one would be wrong: entries are never removed.
   */
  subscriberIds?: number[];
  /**
   * Resource events written with this document and not yet moved to `resource_events` (JSON strings):
   * resource-events/resource-events.service.ts moves them right after the write, or before they are read.
   */
  _resourceEvents?: string[];
}

/**
 * One label or assignee of a noteable as an entry of its own (noteable-words.store.ts): `word` is the
 * label's key or `u<id>`, `_id` is `<word>:<noteableId>`, `touchedAt` the last write that named it.
 */
export interface NoteableWordDoc {
  _id: string;
  word: string;
  family: 'label' | 'assignee';
  noteableId: number;
  touchedAt: Date;
}

const mixed = Schema.Types.Mixed;

/** The stored fields issue and merge request lists are ordered on (issuable-order.ts) besides the id. */
export const LIST_ORDER_KEYS = [
  'createdAt',
  'updatedAt',
  'title',
  'dueDate',
  'relativePosition',
  'mergedAt',
  'milestoneDue',
  'upvotesCount',
];

/**
 * What the list indexes carry after their order (issuables.finder.ts): `state`, the label words
 * (`labelKeys`, matched by literal patterns), `milestoneId`, `confidential` (the readable filter) and the
 * assignee words (`assigneeKeys`: assignee filters, and who reads a confidential issue).
 */
export const LIST_FILTER_KEYS = {
  state: 1,
  labelKeys: 1,
  milestoneId: 1,
  confidential: 1,
  assigneeKeys: 1,
} as const;

/** A board column's issues in order: the open or closed issues of a root group, by position. */
const COLUMN_ORDER_KEYS = { kind: 1, positionScope: 1, state: 1, relativePosition: 1 } as const;
/** What a column checks on each entry: readable projects, labels, milestone, confidentiality, assignees. */
const COLUMN_FILTER_KEYS = {
  projectId: 1,
  labelKeys: 1,
  milestoneId: 1,
  confidential: 1,
  assigneeKeys: 1,
} as const;

/** The board columns' index (see below); migrations/assignee-key-words.ts drops its earlier shape. */
export const COLUMN_INDEX = { ...COLUMN_ORDER_KEYS, _id: 1, ...COLUMN_FILTER_KEYS } as const;

/** The same keys led by _id (see its use below). */
export const COLUMN_BY_ID_INDEX = { _id: 1, ...COLUMN_ORDER_KEYS, ...COLUMN_FILTER_KEYS } as const;

export function noteableSchema(): Schema<NoteableDoc> {
  const schema = documentSchema<NoteableDoc>({
    _id: Number,
    kind: String,
    projectId: Number,
    groupId: Number,
    iid: Number,
    title: String,
    description: String,
    state: String,
    labels: [String],
    milestoneId: Number,
    assigneeIds: [Number],
    author: mixed,
    createdAt: Date,
    updatedAt: Date,
    closedAt: Date,
    closedBy: mixed,
    mergedAt: Date,
    mergedBy: mixed,
    issueType: String,
    alertId: String,
    sourceBranch: String,
    targetBranch: String,
    diffRefs: mixed,
    mergeCommitSha: String,
    fileName: String,
    content: String,
    visibility: String,
    snippetFiles: mixed,
    confidential: Boolean,
    dueDate: String,
    milestoneDue: String,
    discussionLocked: Boolean,
    reviewerIds: [Number],
    weight: Number,
    updatedById: Number,
    startDateFixed: String,
    startDateIsFixed: Boolean,
    dueDateFixed: String,
    dueDateIsFixed: Boolean,
    relativePosition: Number,
    positionScope: String,
    labelSet: mixed,
    labelCount: Number,
    labelKeys: String,
    assigneeKeys: String,
    upvotesCount: Number,
    downvotesCount: Number,
    userNotesCount: Number,
    internalNotesCount: Number,
    mayHaveEpic: Boolean,
    subscriberIds: { type: [Number], default: undefined },
    _resourceEvents: { type: [String], default: undefined },
  });
  schema.index({ kind: 1, projectId: 1, iid: 1 });
  schema.index({ kind: 1, groupId: 1, iid: 1 });
  // Lists, newest first: the page is read along the index and stops at its last row. Without them the
  // database sorted every issue of the project for each page (10,000 issues: 350 ms a page, now 15 ms).
  // The list indexes end in the keys the common filters read (LIST_FILTER_KEYS), so a page and its
  // X-Total check state, labels, milestone and confidentiality on the index entries they pass instead of
  // reading each document (a label list of 100,000 issues: seconds before). migrations/list-index-keys.ts
  // drops the indexes these replace.
  schema.index({ kind: 1, projectId: 1, _id: -1, ...LIST_FILTER_KEYS });
  schema.index({ kind: 1, groupId: 1, _id: -1 });
  // The other orders of issue and merge request lists (issuable-order.ts), each ending in the id that
  // breaks ties, so every page is read along an index at any scope (projectId, or $in the visible ones).
  for (const key of LIST_ORDER_KEYS) {
    schema.index({ kind: 1, projectId: 1, [key]: 1, _id: 1, ...LIST_FILTER_KEYS });
  }
  // Documents written before labelCount (or labelKeys, assigneeKeys) existed, for the steps that fill them
  // (migrations/).
  schema.index({ labelCount: 1 });
  schema.index({ labelKeys: 1 });
  schema.index({ assigneeKeys: 1 });
  // Neighbours and free places of a position (relative-position.ts).
  schema.index({ positionScope: 1, relativePosition: 1 });
  // Board columns (board-columns.store.ts): the open or closed issues of a root group walked by position;
  // the readable projects, the labels, the milestone, confidentiality and the assignees are checked on
  // each entry, so a page, a deep page and a capped count never read the documents they pass over.
  schema.index(COLUMN_INDEX);
  // The same keys led by _id: a column narrowed to the few issues of a rare label (board-columns.store.ts)
  // reads them by id, and the local FerretDB checks the column's conditions on these entries (patch 0012)
  // instead of reading each from the document (two JSON parses a field). MongoDB needs only the _id index.
  schema.index(COLUMN_BY_ID_INDEX);
  // A user's snippets, newest first (GET /snippets, personal-snippets.ts): without it every snippet was read.
  schema.index({ kind: 1, 'author.id': 1, _id: -1 });
  // Group lists of issues over most of a root group's projects, newest first (lists/root-scope.ts): one
  // walk of the root's issues in order with the projects and filters checked on each entry, where one
  // range per project was walked and the pieces sorted. Declared last: the local SQLite, without
  // statistics, costs the most recent of equally good indexes first.
  schema.index({ kind: 1, positionScope: 1, createdAt: 1, _id: 1, projectId: 1, ...LIST_FILTER_KEYS });
  addOutboxFields(schema);
  return schema;
}

export function noteableWordSchema(): Schema<NoteableWordDoc> {
  const schema = documentSchema<NoteableWordDoc>({
    _id: String,
    word: String,
    family: String,
    noteableId: Number,
    touchedAt: Date,
  });
  // The noteables with a word (a rare board column's issues), and a noteable's words of a family (pruning).
  schema.index({ word: 1, noteableId: 1 });
  schema.index({ noteableId: 1, family: 1, word: 1 });
  return schema;
}
