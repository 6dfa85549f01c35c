import { Schema, type Connection, type Model } from 'mongoose';
import type { NoteableTypeName, PositionParam, UserSummary } from '@gl/contracts';
import {
  addOutboxFields,
  defineModel,
  documentSchema,
  membershipSchema,
  type MembershipDoc,
  type Outbox,
} from '@gl/service-kit';

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
}

export interface NoteDoc {
  _id: number;
  projectId: number | null;
  groupId: number | null;
  noteableType: NoteableTypeName;
  /** Database id of the noteable; null for commits. */
  noteableId: number | null;
  noteableIid: number | null;
  /** The commit SHA for commit notes. */
  commitSha: string | null;
  discussionId: string;
  type: 'DiscussionNote' | 'DiffNote' | null;
  body: string;
  system: boolean;
  author: UserSummary;
  createdAt: Date;
  updatedAt: Date;
  resolvable: boolean;
  resolvedBy: UserSummary | null;
  resolvedAt: Date | null;
  position: PositionParam | null;
  /** Diff notes on merge requests: the commit the thread starts on. */
  commitId: string | null;
  /** Internal note (formerly `confidential`): Reporter and up only. Absent on notes written before it existed. */
  internal?: boolean;
}

export interface CommitDoc {
  _id: string;
  projectId: number;
  branch: string;
  title: string;
  message: string;
  parentIds: string[];
  authorName: string;
  authorEmail: string;
  createdAt: Date;
}

export interface BranchDoc {
  _id: string;
  projectId: number;
  name: string;
  headSha: string;
  updatedAt: Date;
}

/** Alert → incident issue, keyed by alert id: the reservation that makes incident creation idempotent. */
export interface IncidentLinkDoc {
  _id: string;
  projectId: number;
  issueId: number;
  issueIid: number;
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

/**
 * What discussions knows about group milestones, from the boards service's events: the title from
 * `milestone.opened`, the whole milestone from `milestone.defined` (absent fields: not defined yet).
 */
export interface MilestoneDoc {
  _id: number;
  iid: number | null;
  title: string;
  groupId?: number;
  state?: 'active' | 'closed';
  /** `YYYY-MM-DD` or null. */
  startDate?: string | null;
  dueDate?: string | null;
  /** The `milestone.defined` revision this copy is at: an older one never overwrites it. */
  revision?: number;
  /** Set while some of the milestone's items still carry an older due date (milestone-redating.job.ts). */
  redating?: boolean;
}

/** What discussions knows about users, from the identity events: enough for `@username` references. */
export interface UserDoc {
  _id: number;
  username: string;
  name: string;
  /** occurredAt of the identity event this copy comes from: an older event never overwrites it. */
  occurredAt: string;
}

/**
 * What discussions knows about projects, from the identity events: which group subtree holds them and who
 * may read them (issuables.scope.ts), for lists beyond one project. `rootGroupId` is the first ancestor
 * (null in a user namespace): an indexed field that narrows a subtree before its ancestors are checked.
 */
export interface ProjectRefDoc {
  _id: number;
  fullPath: string;
  visibility: 'private' | 'internal' | 'public';
  ancestorGroupIds: number[];
  rootGroupId: number | null;
  destroyed: boolean;
}

/** A group's place in its tree: memberships of a group reach the projects of its subtree. */
export interface GroupRefDoc {
  _id: number;
  rootGroupId: number;
  destroyed: boolean;
}

/**
 * A claim on one position of a positioning scope, keyed `<scope>:<position>`: whoever inserts it first
 * owns the position, so two issues never share one whatever the races (relative-position.ts). `at`: when it
 * was claimed (a claim whose owner never took the position is stale after a while).
 */
export interface PositionClaimDoc {
  _id: string;
  scope: string;
  position: number;
  issueId: number;
  at: Date;
}

/** One writer at a time moves the issues of a positioning scope: a lease by scope, with an expiry. */
export interface PositionLeaseDoc {
  _id: string;
  holder: string;
  until: Date;
}

export interface DiscussionsModels {
  noteables: Model<NoteableDoc>;
  notes: Model<NoteDoc>;
  commits: Model<CommitDoc>;
  branches: Model<BranchDoc>;
  incidents: Model<IncidentLinkDoc>;
  milestones: Model<MilestoneDoc>;
  users: Model<UserDoc>;
  projects: Model<ProjectRefDoc>;
  groups: Model<GroupRefDoc>;
  members: Model<MembershipDoc>;
  positionClaims: Model<PositionClaimDoc>;
  positionLeases: Model<PositionLeaseDoc>;
  noteableWords: Model<NoteableWordDoc>;
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

export function createDiscussionsModels(connection: Connection, outbox: Outbox): DiscussionsModels {
  const noteableSchema = documentSchema<NoteableDoc>({
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
  });
  noteableSchema.index({ kind: 1, projectId: 1, iid: 1 });
  noteableSchema.index({ kind: 1, groupId: 1, iid: 1 });
  // Lists, newest first: the page is read along the index and stops at its last row. Without them the
  // database sorted every issue of the project for each page (10,000 issues: 350 ms a page, now 15 ms).
  // The list indexes end in the keys the common filters read (LIST_FILTER_KEYS), so a page and its
  // X-Total check state, labels, milestone and confidentiality on the index entries they pass instead of
  // reading each document (a label list of 100,000 issues: seconds before). migrations/list-index-keys.ts
  // drops the indexes these replace.
  noteableSchema.index({ kind: 1, projectId: 1, _id: -1, ...LIST_FILTER_KEYS });
  noteableSchema.index({ kind: 1, groupId: 1, _id: -1 });
  // The other orders of issue and merge request lists (issuable-order.ts), each ending in the id that
  // breaks ties, so every page is read along an index at any scope (projectId, or $in the visible ones).
  for (const key of LIST_ORDER_KEYS) {
    noteableSchema.index({ kind: 1, projectId: 1, [key]: 1, _id: 1, ...LIST_FILTER_KEYS });
  }
  // Documents written before labelCount (or labelKeys, assigneeKeys) existed, for the steps that fill them
  // (migrations/).
  noteableSchema.index({ labelCount: 1 });
  noteableSchema.index({ labelKeys: 1 });
  noteableSchema.index({ assigneeKeys: 1 });
  // Neighbours and free places of a position (relative-position.ts).
  noteableSchema.index({ positionScope: 1, relativePosition: 1 });
  // Board columns (board-columns.store.ts): the open or closed issues of a root group walked by position;
  // the readable projects, the labels, the milestone, confidentiality and the assignees are checked on
  // each entry, so a page, a deep page and a capped count never read the documents they pass over.
  noteableSchema.index(COLUMN_INDEX);
  // The same keys led by _id: a column narrowed to the few issues of a rare label (board-columns.store.ts)
  // reads them by id, and the local FerretDB checks the column's conditions on these entries (patch 0012)
  // instead of reading each from the document (two JSON parses a field). MongoDB needs only the _id index.
  noteableSchema.index(COLUMN_BY_ID_INDEX);
  // A user's snippets, newest first (GET /snippets, personal-snippets.ts): without it every snippet was read.
  noteableSchema.index({ kind: 1, 'author.id': 1, _id: -1 });
  addOutboxFields(noteableSchema);

  const noteSchema = documentSchema<NoteDoc>({
    _id: Number,
    projectId: Number,
    groupId: Number,
    noteableType: String,
    noteableId: Number,
    noteableIid: Number,
    commitSha: String,
    discussionId: String,
    type: String,
    body: String,
    system: Boolean,
    author: mixed,
    createdAt: Date,
    updatedAt: Date,
    resolvable: Boolean,
    resolvedBy: mixed,
    resolvedAt: Date,
    position: mixed,
    commitId: String,
    internal: Boolean,
  });
  noteSchema.index({ noteableType: 1, noteableId: 1, createdAt: 1 });
  noteSchema.index({ projectId: 1, commitSha: 1 });
  addOutboxFields(noteSchema);

  const commitSchema = documentSchema<CommitDoc>({
    _id: String,
    projectId: Number,
    branch: String,
    title: String,
    message: String,
    parentIds: [String],
    authorName: String,
    authorEmail: String,
    createdAt: Date,
  });
  commitSchema.index({ projectId: 1 });

  const branchSchema = documentSchema<BranchDoc>({
    _id: String,
    projectId: Number,
    name: String,
    headSha: String,
    updatedAt: Date,
  });
  addOutboxFields(branchSchema);

  const incidentSchema = documentSchema<IncidentLinkDoc>({
    _id: String,
    projectId: Number,
    issueId: Number,
    issueIid: Number,
  });
  const milestoneSchema = documentSchema<MilestoneDoc>({
    _id: Number,
    iid: Number,
    title: String,
    groupId: Number,
    state: String,
    startDate: String,
    dueDate: String,
    revision: Number,
    redating: Boolean,
  });
  milestoneSchema.index({ title: 1 });
  // The milestones whose items the re-dating job still has to bring to their due date.
  milestoneSchema.index({ redating: 1 });
  // The Upcoming and Started filters: a scope's groups' open milestones (issuables.scope.ts).
  milestoneSchema.index({ groupId: 1, state: 1 });

  const userSchema = documentSchema<UserDoc>({
    _id: Number,
    username: String,
    name: String,
    occurredAt: String,
  });
  userSchema.index({ username: 1 });

  const projectSchema = documentSchema<ProjectRefDoc>({
    _id: Number,
    fullPath: String,
    visibility: String,
    ancestorGroupIds: [Number],
    rootGroupId: Number,
    destroyed: Boolean,
  });
  projectSchema.index({ rootGroupId: 1 });
  projectSchema.index({ visibility: 1 });
  projectSchema.index({ destroyed: 1 });
  const claimSchema = documentSchema<PositionClaimDoc>({
    _id: String,
    scope: String,
    position: Number,
    issueId: Number,
    at: Date,
  });
  claimSchema.index({ scope: 1, position: 1 });
  const leaseSchema = documentSchema<PositionLeaseDoc>({ _id: String, holder: String, until: Date });
  const groupSchema = documentSchema<GroupRefDoc>({ _id: Number, rootGroupId: Number, destroyed: Boolean });
  const wordSchema = documentSchema<NoteableWordDoc>({
    _id: String,
    word: String,
    family: String,
    noteableId: Number,
    touchedAt: Date,
  });
  // The noteables with a word (a rare board column's issues), and a noteable's words of a family (pruning).
  wordSchema.index({ word: 1, noteableId: 1 });
  wordSchema.index({ noteableId: 1, family: 1, word: 1 });

  const models: DiscussionsModels = {
    noteables: defineModel(connection, 'Noteable', noteableSchema, 'noteables'),
    notes: defineModel(connection, 'Note', noteSchema, 'notes'),
    commits: defineModel(connection, 'Commit', commitSchema, 'commits'),
    branches: defineModel(connection, 'Branch', branchSchema, 'branches'),
    incidents: defineModel(connection, 'IncidentLink', incidentSchema, 'incident_links'),
    milestones: defineModel(connection, 'Milestone', milestoneSchema, 'milestones'),
    users: defineModel(connection, 'User', userSchema, 'users'),
    projects: defineModel(connection, 'ProjectRef', projectSchema, 'projects'),
    groups: defineModel(connection, 'GroupRef', groupSchema, 'groups'),
    members: defineModel(connection, 'Member', membershipSchema(), 'members'),
    positionClaims: defineModel(connection, 'PositionClaim', claimSchema, 'position_claims'),
    positionLeases: defineModel(connection, 'PositionLease', leaseSchema, 'position_leases'),
    noteableWords: defineModel(connection, 'NoteableWord', wordSchema, 'noteable_words'),
  };
  outbox.register(models.noteables);
  outbox.register(models.notes);
  outbox.register(models.branches);
  return models;
}
