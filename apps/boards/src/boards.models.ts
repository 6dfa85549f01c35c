import { Schema, type Connection, type Model } from 'mongoose';
import { addOutboxFields, defineModel, documentSchema } from '@gl/service-kit';

export interface LabelDoc {
  _id: number;
  groupId: number;
  name: string;
  color: string;
  description: string | null;
  priority: number | null;
  createdAt: Date;
}

export interface MilestoneDoc {
  _id: number;
  groupId: number;
  iid: number;
  title: string;
  description: string;
  state: 'active' | 'closed';
  dueDate: string | null;
  startDate: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type ListKind = 'label' | 'milestone' | 'assignee';

/** A movable list; its position is its index in the board's `lists` array. */
export interface ListItem {
  id: number;
  kind: ListKind;
  targetId: number;
}

export interface BoardDoc {
  _id: number;
  groupId: number;
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
}

export interface BoardsModels {
  labels: Model<LabelDoc>;
  milestones: Model<MilestoneDoc>;
  boards: Model<BoardDoc>;
  users: Model<UserDoc>;
}

export function createBoardsModels(connection: Connection): BoardsModels {
  const labelSchema = documentSchema<LabelDoc>({
    _id: Number,
    groupId: Number,
    name: String,
    color: String,
    description: { type: String, default: null },
    priority: { type: Number, default: null },
    createdAt: Date,
  });
  labelSchema.index({ groupId: 1, name: 1 }, { unique: true });

  const milestoneSchema = documentSchema<MilestoneDoc>({
    _id: Number,
    groupId: Number,
    iid: Number,
    title: String,
    description: String,
    state: String,
    dueDate: { type: String, default: null },
    startDate: { type: String, default: null },
    createdAt: Date,
    updatedAt: Date,
  });
  milestoneSchema.index({ groupId: 1, iid: 1 }, { unique: true });
  milestoneSchema.index({ groupId: 1, title: 1 }, { unique: true });
  addOutboxFields(milestoneSchema);

  const listSchema = new Schema<ListItem>({ id: Number, kind: String, targetId: Number }, { _id: false });
  const boardSchema = documentSchema<BoardDoc>({
    _id: Number,
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
  boardSchema.index({ 'lists.id': 1 });

  const userSchema = documentSchema<UserDoc>({ _id: Number, username: String, name: String, state: String });

  return {
    labels: defineModel(connection, 'Label', labelSchema, 'labels'),
    milestones: defineModel(connection, 'Milestone', milestoneSchema, 'milestones'),
    boards: defineModel(connection, 'Board', boardSchema, 'boards'),
    users: defineModel(connection, 'User', userSchema, 'users'),
  };
}
