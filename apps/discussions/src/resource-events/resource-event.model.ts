import { Schema } from 'mongoose';
import type { ResourceEventKind, UserSummary } from '@gl/contracts';
import { documentSchema } from '@gl/service-kit';

/** The issuables that record resource events. */
export type ResourceType = 'Issue' | 'MergeRequest';

/**
 * One resource event (GitLab's resource_label_events, resource_milestone_events, resource_state_events and
 * resource_weight_events tables in one collection, told apart by `kind`): who changed what on an issue or
 * merge request, and when. Written with the change (resource-event-changes.ts), never updated.
 */
export interface ResourceEventDoc {
  _id: number;
  kind: ResourceEventKind;
  resourceType: ResourceType;
  /** The issuable's database id (noteables `_id`), which `resource_id` and `issue_id` show. */
  resourceId: number;
  user: UserSummary;
  createdAt: Date;
  /** Label and milestone events. */
  action?: 'add' | 'remove';
  /** Label events: the label's title, all an issue knows of its labels. */
  labelName?: string;
  /** Milestone events: the milestone added, or the one removed. */
  milestoneId?: number;
  /** Milestone events: the issuable's state then; state events: closed, reopened or merged. */
  state?: 'opened' | 'closed' | 'merged' | 'reopened';
  /** Weight events: the weight set (null: removed). */
  weight?: number | null;
}

export function resourceEventSchema(): Schema<ResourceEventDoc> {
  const schema = documentSchema<ResourceEventDoc>({
    _id: Number,
    kind: String,
    resourceType: String,
    resourceId: Number,
    user: Schema.Types.Mixed,
    createdAt: Date,
    action: String,
    labelName: String,
    milestoneId: Number,
    state: String,
    weight: Number,
  });
  // Every read: one kind of one issuable's events in id order (the lists' pages, one event by id).
  schema.index({ resourceId: 1, kind: 1, _id: 1 });
  return schema;
}
