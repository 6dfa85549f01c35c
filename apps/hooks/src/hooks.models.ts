import { Schema, type Connection, type Model } from 'mongoose';
import { defineModel, documentSchema } from '@gl/service-kit';

export type HookParentKind = 'project' | 'group';
/** Where a hook belongs: one project or one group. */
export interface HookParent {
  kind: HookParentKind;
  id: number;
}

export type BranchFilterStrategy = 'wildcard' | 'regex' | 'all_branches';

/** A URL variable or custom header (GitLab keeps both as encrypted hashes; the value is write-only). */
export interface KeyValue {
  key: string;
  value: string;
}

/**
 * One webhook of a project or a group (GitLab's `web_hooks` row, ProjectHook or GroupHook): everything a
 * delivery needs, so a later delivery worker reads this document and nothing else.
 */
export interface HookDoc {
  _id: number;
  parentKind: HookParentKind;
  /** The project's or group's id. */
  parentId: number;
  /** Groups above the parent, outermost first, as last seen (a request or an identity event). */
  ancestorGroupIds: number[];
  /** The outermost group (the group itself for a top-level group hook); null for a personal project. */
  rootGroupId: number | null;
  /** When `ancestorGroupIds` was learnt (an event's occurredAt or a request's time), against older events. */
  ancestryAt: string;
  url: string;
  name: string | null;
  description: string | null;
  /** The secret sent as X-Gitlab-Token; never shown. */
  token: string | null;
  enableSslVerification: boolean;
  /** The event switches by GitLab's parameter name (`push_events`…); unset ones read as false. */
  events: Record<string, boolean>;
  pushEventsBranchFilter: string | null;
  branchFilterStrategy: BranchFilterStrategy;
  customWebhookTemplate: string | null;
  urlVariables: KeyValue[];
  customHeaders: KeyValue[];
  createdAt: Date;
  updatedAt: Date;
}

export interface HooksModels {
  hooks: Model<HookDoc>;
}

const keyValue = new Schema<KeyValue>({ key: String, value: String }, { _id: false });

export function createHooksModels(connection: Connection): HooksModels {
  const hooks = documentSchema<HookDoc>(
    {
      _id: Number,
      parentKind: String,
      parentId: Number,
      ancestorGroupIds: [Number],
      rootGroupId: { type: Number, default: null },
      ancestryAt: String,
      url: String,
      name: { type: String, default: null },
      description: { type: String, default: null },
      token: { type: String, default: null },
      enableSslVerification: Boolean,
      events: { type: Schema.Types.Mixed, default: {} },
      pushEventsBranchFilter: { type: String, default: null },
      branchFilterStrategy: String,
      customWebhookTemplate: { type: String, default: null },
      urlVariables: [keyValue],
      customHeaders: [keyValue],
      createdAt: Date,
      updatedAt: Date,
    },
    { minimize: false },
  );
  // A parent's hooks in id order (lists, lookups by id, deletion with the parent).
  hooks.index({ parentKind: 1, parentId: 1, _id: 1 });
  // The hooks under a deleted group: read by their root, then checked for the group in their ancestry.
  hooks.index({ rootGroupId: 1, _id: 1 });
  return { hooks: defineModel(connection, 'Hook', hooks, 'web_hooks') };
}
