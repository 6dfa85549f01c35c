import { Schema, type Connection, type Model } from 'mongoose';
import type { ActivityAction, TargetAudience, Visibility } from '@gl/contracts';
import { defineModel, documentSchema, membershipSchema, type MembershipData } from '@gl/service-kit';

/** One recorded activity event; `sourceEventId` (the domain event id) makes ingestion idempotent. */
export interface ActivityDoc {
  _id: number;
  sourceEventId: string;
  projectId: number | null;
  groupId: number | null;
  authorId: number;
  /** The author as the event named them, for authors the user projection has not seen (root). */
  authorUsername: string | null;
  authorName: string | null;
  action: ActivityAction;
  actionName: string;
  targetId: number | null;
  targetIid: number | null;
  targetType: string | null;
  targetTitle: string | null;
  note: ActivityNote | null;
  pushData: ActivityPushData | null;
  createdAt: Date;
  /**
   * Who may read the target, as its domain event said when it was published (confidential, internal,
   * snippet visibility, author, assignees); absent on events published before the audience existed.
   */
  audience?: TargetAudience | null;
  /**
   * Who reads the event, from the audience (activity-reach.ts): the reader classes below Reporter that read
   * it whoever they are (a bit set; absent: all of them), and the users named in it who read it beyond that
   * (`,5,9,`, or null). Written with the event, so the lists filter by them in the database.
   */
  reach?: number;
  readers?: string | null;
}

export interface ActivityNote {
  id: number;
  type: string | null;
  body: string;
  system: boolean;
  createdAt: string;
  noteableId: number | null;
  noteableType: string;
  noteableIid: number | null;
  commitId: string | null;
}

export interface ActivityPushData {
  commitCount: number;
  action: 'created' | 'pushed' | 'removed';
  refType: 'branch' | 'tag';
  commitFrom: string | null;
  commitTo: string | null;
  ref: string;
  commitTitle: string | null;
}

/** One per applied domain event, keyed by its id: the duplicate check is a lookup by `_id`. */
export interface IngestedDoc {
  _id: string;
  activityId: number | null;
  /** Absent or true: recorded. False: a claim older builds wrote before recording (recorded again). */
  done?: boolean;
  /** When the record was written; records older than the event stream keeps events are removed. */
  at?: Date;
}

export interface UserDoc {
  _id: number;
  username: string;
  usernameLower: string;
  name: string;
  state: string;
  /** Primary address (identity events), for avatar_url; absent on copies older than it. */
  email?: string;
  /**
   * The user was deleted: their events are removed (author-removal.job.ts); until that is done, and for
   * anything else naming them, they show as the Ghost User.
   */
  destroyed?: boolean;
}

/**
 * A deleted user whose activity events are still to be removed, written when `user.destroyed` is applied and
 * deleted once they are all gone (GitLab's loose foreign key cleanup, `LooseForeignKeys::CleanupWorker`).
 */
export interface AuthorRemovalDoc {
  _id: number;
  at: Date;
}

export interface ProjectDoc {
  _id: number;
  fullPath: string;
  visibility: Visibility;
  ancestorGroupIds: number[];
  destroyed: boolean;
  /** Request that created the project: the creator's own owner membership is not a `joined` event. */
  createdCorrelationId: string | null;
}

export interface GroupDoc {
  _id: number;
  visibility: Visibility;
  ancestorGroupIds: number[];
  destroyed: boolean;
}

/** A membership as identity events carry it, keyed by `membershipId` (`<sourceType>:<sourceId>:<userId>`). */
export interface MemberDoc extends MembershipData {
  _id: string;
}

export interface EventsModels {
  activities: Model<ActivityDoc>;
  ingested: Model<IngestedDoc>;
  users: Model<UserDoc>;
  projects: Model<ProjectDoc>;
  groups: Model<GroupDoc>;
  members: Model<MemberDoc>;
  authorRemovals: Model<AuthorRemovalDoc>;
}

function activitySchema(): Schema<ActivityDoc> {
  const schema = documentSchema<ActivityDoc>({
    _id: Number,
    sourceEventId: { type: String, required: true },
    projectId: { type: Number, default: null },
    groupId: { type: Number, default: null },
    authorId: { type: Number, required: true },
    authorUsername: { type: String, default: null },
    authorName: { type: String, default: null },
    action: { type: String, required: true },
    actionName: { type: String, required: true },
    targetId: { type: Number, default: null },
    targetIid: { type: Number, default: null },
    targetType: { type: String, default: null },
    targetTitle: { type: String, default: null },
    note: { type: Schema.Types.Mixed, default: null },
    pushData: { type: Schema.Types.Mixed, default: null },
    createdAt: { type: Date, required: true },
    audience: { type: Schema.Types.Mixed, default: undefined },
    reach: { type: Number, default: undefined },
    readers: { type: String, default: null },
  });
  schema.index({ sourceEventId: 1 }, { unique: true });
  // Every list reads along one of these in `_id` order (activity-log.store.ts): the fields a list fixes
  // first, then `_id` (so a page stops after its events and a deep page skips index entries, never
  // documents), then what its filters test (reach for who reads it, createdAt for before/after), so that
  // neither a page nor a count reads a document it does not return. Project lists, plain or by target type
  // or action; an author's events (also what author-removal.job.ts deletes); the retention job by time.
  schema.index({ projectId: 1, _id: -1, reach: 1, createdAt: 1 });
  schema.index({ projectId: 1, targetType: 1, _id: -1, reach: 1, createdAt: 1 });
  schema.index({ projectId: 1, action: 1, _id: -1, reach: 1, createdAt: 1 });
  schema.index({ authorId: 1, _id: -1, projectId: 1, groupId: 1, reach: 1, createdAt: 1 });
  // scope=all over most projects walks every event in id order (activity-access.ts `authorizedFilter`).
  schema.index({ _id: -1, projectId: 1, reach: 1, createdAt: 1 });
  schema.index({ createdAt: -1, _id: -1 });
  return schema;
}

function ingestedSchema(): Schema<IngestedDoc> {
  const schema = documentSchema<IngestedDoc>({
    _id: String,
    activityId: { type: Number, default: null },
    done: Boolean,
    at: Date,
  });
  // The retention job removes records by age (ingested.store.ts `expireIngested`).
  schema.index({ at: 1 });
  return schema;
}

export function createEventsModels(connection: Connection): EventsModels {
  const users = documentSchema<UserDoc>({
    _id: Number,
    username: String,
    usernameLower: String,
    name: String,
    state: String,
  });
  users.index({ usernameLower: 1 });
  const projects = documentSchema<ProjectDoc>({
    _id: Number,
    fullPath: String,
    visibility: String,
    ancestorGroupIds: [Number],
    destroyed: { type: Boolean, default: false },
    createdCorrelationId: { type: String, default: null },
  });
  projects.index({ visibility: 1 });
  projects.index({ ancestorGroupIds: 1 });
  const groups = documentSchema<GroupDoc>({
    _id: Number,
    visibility: String,
    ancestorGroupIds: [Number],
    destroyed: { type: Boolean, default: false },
  });
  const members = membershipSchema();
  return {
    activities: defineModel(connection, 'Activity', activitySchema(), 'activities'),
    ingested: defineModel(connection, 'Ingested', ingestedSchema(), 'ingested'),
    users: defineModel(connection, 'User', users, 'users'),
    projects: defineModel(connection, 'Project', projects, 'projects'),
    groups: defineModel(connection, 'Group', groups, 'groups'),
    members: defineModel(connection, 'Member', members, 'members'),
    authorRemovals: defineModel(
      connection,
      'AuthorRemoval',
      documentSchema<AuthorRemovalDoc>({ _id: Number, at: Date }),
      'author_removals',
    ),
  };
}
