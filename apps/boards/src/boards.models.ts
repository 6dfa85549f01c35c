import { Schema, type Connection, type Model } from 'mongoose';
import { addOutboxFields } from '@gl/service-kit';

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

function model<T>(connection: Connection, name: string, schema: Schema<T>, collection: string): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema, collection);
}

export function createBoardsModels(connection: Connection): BoardsModels {
  const labelSchema = new Schema<LabelDoc>(
    {
      _id: Number,
      groupId: Number,
      name: String,
      color: String,
      description: { type: String, default: null },
      priority: { type: Number, default: null },
      createdAt: Date,
    },
    { versionKey: false },
  );
  labelSchema.index({ groupId: 1, name: 1 }, { unique: true });

  const milestoneSchema = new Schema<MilestoneDoc>(
    {
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
    },
    { versionKey: false },
  );
  milestoneSchema.index({ groupId: 1, iid: 1 }, { unique: true });
  milestoneSchema.index({ groupId: 1, title: 1 }, { unique: true });
  addOutboxFields(milestoneSchema);

  const listSchema = new Schema<ListItem>({ id: Number, kind: String, targetId: Number }, { _id: false });
  const boardSchema = new Schema<BoardDoc>(
    {
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
    },
    { versionKey: false },
  );
  boardSchema.index({ 'lists.id': 1 });

  const userSchema = new Schema<UserDoc>(
    { _id: Number, username: String, name: String, state: String },
    { versionKey: false },
  );

  return {
    labels: model(connection, 'Label', labelSchema, 'labels'),
    milestones: model(connection, 'Milestone', milestoneSchema, 'milestones'),
    boards: model(connection, 'Board', boardSchema, 'boards'),
    users: model(connection, 'User', userSchema, 'users'),
  };
}
