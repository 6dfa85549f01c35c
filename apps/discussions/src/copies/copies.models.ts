import type { Schema } from 'mongoose';
import { documentSchema } from '@gl/service-kit';

/**
 * What discussions knows about group milestones, from the boards service's events: the title from
 * `milestone.opened`, the whole milestone from `milestone.defined` (absent fields: not defined yet).
 */
export interface MilestoneDoc {
  _id: number;
  iid: number | null;
  title: string;
  groupId?: number;
  /** A project milestone's project (`gl.boards.project_milestone.defined`); group milestones have none. */
  projectId?: number;
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

export function milestoneSchema(): Schema<MilestoneDoc> {
  const schema = documentSchema<MilestoneDoc>({
    _id: Number,
    iid: Number,
    title: String,
    groupId: Number,
    projectId: Number,
    state: String,
    startDate: String,
    dueDate: String,
    revision: Number,
    redating: Boolean,
  });
  schema.index({ title: 1 });
  // The milestones whose items the re-dating job still has to bring to their due date.
  schema.index({ redating: 1 });
  // The Upcoming and Started filters: a scope's groups' open milestones (issuables.scope.ts).
  schema.index({ groupId: 1, state: 1 });
  return schema;
}

export function userSchema(): Schema<UserDoc> {
  const schema = documentSchema<UserDoc>({
    _id: Number,
    username: String,
    name: String,
    occurredAt: String,
  });
  schema.index({ username: 1 });
  return schema;
}

export function projectRefSchema(): Schema<ProjectRefDoc> {
  const schema = documentSchema<ProjectRefDoc>({
    _id: Number,
    fullPath: String,
    visibility: String,
    ancestorGroupIds: [Number],
    rootGroupId: Number,
    destroyed: Boolean,
  });
  schema.index({ rootGroupId: 1 });
  schema.index({ visibility: 1 });
  schema.index({ destroyed: 1 });
  // A project named by its path (issue-links: `target_project_id` given as a full path).
  schema.index({ fullPath: 1 });
  return schema;
}

export function groupRefSchema(): Schema<GroupRefDoc> {
  return documentSchema<GroupRefDoc>({ _id: Number, rootGroupId: Number, destroyed: Boolean });
}
