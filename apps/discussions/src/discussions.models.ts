import type { Connection, Model } from 'mongoose';
import {
  defineModel,
  membershipSchema,
  type Counters,
  type MembershipDoc,
  type Outbox,
} from '@gl/service-kit';
import {
  noteableSchema,
  noteableWordSchema,
  type NoteableDoc,
  type NoteableWordDoc,
} from './noteables/noteable.model';
import { noteSchema, type NoteDoc } from './notes/note.model';
import { awardEmojiSchema, type AwardEmojiDoc } from './award-emoji/award-emoji.model';
import { resourceEventSchema, type ResourceEventDoc } from './resource-events/resource-event.model';
import { issueLinkSchema, type IssueLinkDoc } from './issue-links/issue-link.model';
import { branchSchema, commitSchema, type BranchDoc, type CommitDoc } from './commits/commit.model';
import { incidentLinkSchema, type IncidentLinkDoc } from './issues/incident-links.model';
import {
  positionClaimSchema,
  positionLeaseSchema,
  type PositionClaimDoc,
  type PositionLeaseDoc,
} from './issues/positions.model';
import {
  groupRefSchema,
  milestoneSchema,
  projectRefSchema,
  userSchema,
  type GroupRefDoc,
  type MilestoneDoc,
  type ProjectRefDoc,
  type UserDoc,
} from './copies/copies.models';
import { labelCopySchema, type LabelCopyDoc } from './copies/label-copy.model';

/** gl_discussions's collections; each aggregate's folder declares its documents and their indexes. */
export interface DiscussionsModels {
  noteables: Model<NoteableDoc>;
  notes: Model<NoteDoc>;
  commits: Model<CommitDoc>;
  branches: Model<BranchDoc>;
  incidents: Model<IncidentLinkDoc>;
  milestones: Model<MilestoneDoc>;
  labels: Model<LabelCopyDoc>;
  users: Model<UserDoc>;
  projects: Model<ProjectRefDoc>;
  groups: Model<GroupRefDoc>;
  members: Model<MembershipDoc>;
  positionClaims: Model<PositionClaimDoc>;
  positionLeases: Model<PositionLeaseDoc>;
  noteableWords: Model<NoteableWordDoc>;
  awardEmoji: Model<AwardEmojiDoc>;
  resourceEvents: Model<ResourceEventDoc>;
  issueLinks: Model<IssueLinkDoc>;
}

/** What the stores and services are built from (app.ts): the models, the id counters, the outbox. */
export interface DiscussionsDeps {
  models: DiscussionsModels;
  counters: Counters;
  outbox: Outbox;
}

export function createDiscussionsModels(connection: Connection, outbox: Outbox): DiscussionsModels {
  const models: DiscussionsModels = {
    noteables: defineModel(connection, 'Noteable', noteableSchema(), 'noteables'),
    notes: defineModel(connection, 'Note', noteSchema(), 'notes'),
    commits: defineModel(connection, 'Commit', commitSchema(), 'commits'),
    branches: defineModel(connection, 'Branch', branchSchema(), 'branches'),
    incidents: defineModel(connection, 'IncidentLink', incidentLinkSchema(), 'incident_links'),
    milestones: defineModel(connection, 'Milestone', milestoneSchema(), 'milestones'),
    labels: defineModel(connection, 'LabelCopy', labelCopySchema(), 'labels'),
    users: defineModel(connection, 'User', userSchema(), 'users'),
    projects: defineModel(connection, 'ProjectRef', projectRefSchema(), 'projects'),
    groups: defineModel(connection, 'GroupRef', groupRefSchema(), 'groups'),
    members: defineModel(connection, 'Member', membershipSchema(), 'members'),
    positionClaims: defineModel(connection, 'PositionClaim', positionClaimSchema(), 'position_claims'),
    positionLeases: defineModel(connection, 'PositionLease', positionLeaseSchema(), 'position_leases'),
    noteableWords: defineModel(connection, 'NoteableWord', noteableWordSchema(), 'noteable_words'),
    awardEmoji: defineModel(connection, 'AwardEmoji', awardEmojiSchema(), 'award_emoji'),
    resourceEvents: defineModel(connection, 'ResourceEvent', resourceEventSchema(), 'resource_events'),
    issueLinks: defineModel(connection, 'IssueLink', issueLinkSchema(), 'issue_links'),
  };
  outbox.register(models.noteables);
  outbox.register(models.notes);
  outbox.register(models.branches);
  return models;
}
