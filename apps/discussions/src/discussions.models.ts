import type { Connection, Model, Schema } from 'mongoose';
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

/**
 * The name each model is compiled under: the migration steps find the models by it once the app has built
 * them (migrations/compiled-models.ts).
 */
export const DISCUSSIONS_MODEL_NAMES = {
  noteables: 'Noteable',
  notes: 'Note',
  commits: 'Commit',
  branches: 'Branch',
  incidents: 'IncidentLink',
  milestones: 'Milestone',
  labels: 'LabelCopy',
  users: 'User',
  projects: 'ProjectRef',
  groups: 'GroupRef',
  members: 'Member',
  positionClaims: 'PositionClaim',
  positionLeases: 'PositionLease',
  noteableWords: 'NoteableWord',
  awardEmoji: 'AwardEmoji',
  resourceEvents: 'ResourceEvent',
  issueLinks: 'IssueLink',
} as const satisfies Record<keyof DiscussionsModels, string>;

/** What the stores and services are built from (app.ts): the models, the id counters, the outbox. */
export interface DiscussionsDeps {
  models: DiscussionsModels;
  counters: Counters;
  outbox: Outbox;
}

export function createDiscussionsModels(connection: Connection, outbox: Outbox): DiscussionsModels {
  // Each under its name in DISCUSSIONS_MODEL_NAMES, where the migration steps look it up.
  const defineNamed = <T>(key: keyof DiscussionsModels, schema: Schema<T>, collection: string) =>
    defineModel(connection, DISCUSSIONS_MODEL_NAMES[key], schema, collection);
  const models: DiscussionsModels = {
    noteables: defineNamed('noteables', noteableSchema(), 'noteables'),
    notes: defineNamed('notes', noteSchema(), 'notes'),
    commits: defineNamed('commits', commitSchema(), 'commits'),
    branches: defineNamed('branches', branchSchema(), 'branches'),
    incidents: defineNamed('incidents', incidentLinkSchema(), 'incident_links'),
    milestones: defineNamed('milestones', milestoneSchema(), 'milestones'),
    labels: defineNamed('labels', labelCopySchema(), 'labels'),
    users: defineNamed('users', userSchema(), 'users'),
    projects: defineNamed('projects', projectRefSchema(), 'projects'),
    groups: defineNamed('groups', groupRefSchema(), 'groups'),
    members: defineNamed('members', membershipSchema(), 'members'),
    positionClaims: defineNamed('positionClaims', positionClaimSchema(), 'position_claims'),
    positionLeases: defineNamed('positionLeases', positionLeaseSchema(), 'position_leases'),
    noteableWords: defineNamed('noteableWords', noteableWordSchema(), 'noteable_words'),
    awardEmoji: defineNamed('awardEmoji', awardEmojiSchema(), 'award_emoji'),
    resourceEvents: defineNamed('resourceEvents', resourceEventSchema(), 'resource_events'),
    issueLinks: defineNamed('issueLinks', issueLinkSchema(), 'issue_links'),
  };
  outbox.register(models.noteables);
  outbox.register(models.notes);
  outbox.register(models.branches);
  return models;
}
