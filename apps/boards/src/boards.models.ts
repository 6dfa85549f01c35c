import { Schema, type Connection, type Model } from 'mongoose';
import { addOutboxFields, defineModel, documentSchema } from '@gl/service-kit';

/** What group and project labels both hold (labels/project-labels.model.ts adds a project's fields). */
export interface LabelFields {
  _id: number;
  name: string;
  color: string;
  description: string | null;
  priority: number | null;
  createdAt: Date;
  /** Counts the label's writes: its `label.defined` events are ordered by it (labels/label-definitions.ts). */
  revision?: number;
}

export interface LabelDoc extends LabelFields {
  groupId: number;
}

/** What group and project milestones both hold (milestones/project-milestones.model.ts adds its own). */
export interface MilestoneFields {
  _id: number;
  iid: number;
  title: string;
  description: string;
  state: 'active' | 'closed';
  dueDate: string | null;
  startDate: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface MilestoneDoc extends MilestoneFields {
  groupId: number;
  /**
   * How many times it was published as `gl.boards.milestone.defined` (its copies keep the highest); absent
   * on milestones written before the event existed (migrations/milestone-definitions.ts publishes them).
   */
  revision?: number;
}

/**
 * A group iteration. Its state and its sequence in the cadence are not stored: the state follows from the
 * dates and today (GitLab stores it and moves it forward daily), the sequence from the cadence's spans.
 */
export interface IterationDoc {
  _id: number;
  groupId: number;
  /** The group and its ancestors at creation, root first: finds a group's descendants' iterations. */
  groupPath: number[];
  rootGroupId: number;
  /** The group's full path at creation, for links when the reader's context does not name the group. */
  groupFullPath: string;
  iid: number;
  cadenceId: number;
  title: string | null;
  /** `title === null`, for the order: GitLab's lists put untitled iterations last among equal due dates. */
  untitled: boolean;
  description: string | null;
  startDate: string;
  dueDate: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What a cadence knows of each of its iterations, to refuse overlapping dates and repeated titles. */
export interface CadenceSpan {
  id: number;
  startDate: string;
  dueDate: string;
  title: string | null;
}

/** An iteration cadence (Iterations::Cadence); internal, as GitLab shows cadences only through GraphQL. */
export interface CadenceDoc {
  _id: number;
  groupId: number;
  /** Unique: `manual:<groupId>` for the group's default manual cadence. */
  slot: string;
  title: string;
  automatic: boolean;
  startDate: string;
  durationInWeeks: number;
  iterationsInAdvance: number;
  active: boolean;
  spans: CadenceSpan[];
  /** Compare-and-set guard for `spans`. */
  version: number;
  createdAt: Date;
}

export type ListKind = 'label' | 'milestone' | 'iteration' | 'assignee';

/** A movable list; its position is its index in the board's `lists` array. */
export interface ListItem {
  id: number;
  kind: ListKind;
  targetId: number;
}

/** What a board belongs to: a group (group boards) or a project (project boards). */
export type BoardParentKind = 'group' | 'project';

/** A board's parent as its documents name it; a NamespaceContext is one. */
export interface BoardParent {
  kind: BoardParentKind;
  id: number;
}

export interface BoardDoc {
  _id: number;
  /** The board's parent (migrations/board-parents.ts wrote them on group boards made before). */
  parentKind: BoardParentKind;
  parentId: number;
  /**
   * The group of a group board, as `gl.boards.board.defined` carries it; absent on project boards, which
   * are not published (their issues' boards are not served yet).
   */
  groupId?: number;
  /** Unique: `default:<groupId>` for the board every group has, `board:<id>` for the others. */
  slot: string;
  name: string;
  hideBacklogList: boolean;
  hideClosedList: boolean;
  milestoneId: number | null;
  assigneeId: number | null;
  labelIds: number[];
  weight: number | null;
  lists: ListItem[];
  /** Compare-and-set guard for list changes. */
  version: number;
  createdAt: Date;
}

/** Users known from identity events, for assignee lists and board scoping. */
export interface UserDoc {
  _id: number;
  username: string;
  name: string;
  state: string;
  /** Primary address (identity events), for avatar_url; absent on copies older than it. */
  email?: string;
  /** The user was deleted: shown as the Ghost User. */
  destroyed?: boolean;
}

export interface BoardsModels {
  labels: Model<LabelDoc>;
  milestones: Model<MilestoneDoc>;
  boards: Model<BoardDoc>;
  users: Model<UserDoc>;
  iterations: Model<IterationDoc>;
  cadences: Model<CadenceDoc>;
}

/** The fields group and project labels share (labels/project-labels.model.ts adds its own). */
export const LABEL_FIELDS = {
  _id: Number,
  name: String,
  color: String,
  description: { type: String, default: null },
  priority: { type: Number, default: null },
  createdAt: Date,
  revision: Number,
};

/** The fields group and project milestones share (milestones/project-milestones.model.ts adds its own). */
export const MILESTONE_FIELDS = {
  _id: Number,
  iid: Number,
  title: String,
  description: String,
  state: String,
  dueDate: { type: String, default: null },
  startDate: { type: String, default: null },
  createdAt: Date,
  updatedAt: Date,
  revision: Number,
};

export function createBoardsModels(connection: Connection): BoardsModels {
  const labelSchema = documentSchema<LabelDoc>({ ...LABEL_FIELDS, groupId: Number });
  labelSchema.index({ groupId: 1, name: 1 }, { unique: true });
  addOutboxFields(labelSchema);

  const milestoneSchema = documentSchema<MilestoneDoc>({ ...MILESTONE_FIELDS, groupId: Number });
  milestoneSchema.index({ groupId: 1, iid: 1 }, { unique: true });
  milestoneSchema.index({ groupId: 1, title: 1 }, { unique: true });
  addOutboxFields(milestoneSchema);

  const listSchema = new Schema<ListItem>({ id: Number, kind: String, targetId: Number }, { _id: false });
  const boardSchema = documentSchema<BoardDoc>({
    _id: Number,
    parentKind: String,
    parentId: Number,
    groupId: { type: Number, index: true },
    slot: { type: String, unique: true },
    name: String,
    hideBacklogList: Boolean,
    hideClosedList: Boolean,
    milestoneId: { type: Number, default: null },
    assigneeId: { type: Number, default: null },
    labelIds: [Number],
    weight: { type: Number, default: null },
    lists: [listSchema],
    version: Number,
    createdAt: Date,
  });
  // A parent's boards in id order (the lists and the lookups of one board by parent).
  boardSchema.index({ parentKind: 1, parentId: 1, _id: 1 });
  boardSchema.index({ 'lists.id': 1 });

  const userSchema = documentSchema<UserDoc>({ _id: Number, username: String, name: String, state: String });

  const iterationSchema = documentSchema<IterationDoc>({
    _id: Number,
    groupId: Number,
    groupPath: [Number],
    rootGroupId: Number,
    groupFullPath: String,
    iid: Number,
    cadenceId: Number,
    title: { type: String, default: null },
    untitled: Boolean,
    description: { type: String, default: null },
    startDate: String,
    dueDate: String,
    createdAt: Date,
    updatedAt: Date,
  });
  iterationSchema.index({ groupId: 1, dueDate: 1 });
  iterationSchema.index({ rootGroupId: 1 });
  iterationSchema.index({ cadenceId: 1, startDate: 1 });

  const spanSchema = new Schema<CadenceSpan>(
    { id: Number, startDate: String, dueDate: String, title: { type: String, default: null } },
    { _id: false },
  );
  const cadenceSchema = documentSchema<CadenceDoc>({
    _id: Number,
    groupId: { type: Number, index: true },
    slot: { type: String, unique: true },
    title: String,
    automatic: Boolean,
    startDate: String,
    durationInWeeks: Number,
    iterationsInAdvance: Number,
    active: Boolean,
    spans: [spanSchema],
    version: Number,
    createdAt: Date,
  });

  return {
    iterations: defineModel(connection, 'Iteration', iterationSchema, 'iterations'),
    cadences: defineModel(connection, 'IterationCadence', cadenceSchema, 'iteration_cadences'),
    labels: defineModel(connection, 'Label', labelSchema, 'labels'),
    milestones: defineModel(connection, 'Milestone', milestoneSchema, 'milestones'),
    boards: defineModel(connection, 'Board', boardSchema, 'boards'),
    users: defineModel(connection, 'User', userSchema, 'users'),
  };
}
