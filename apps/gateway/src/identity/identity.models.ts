import { Schema, type Connection, type Model, type SchemaDefinition } from 'mongoose';
import type { FeatureAccessLevel, ProjectFeature } from '@gl/contracts';
import {
  addOutboxFields,
  createFlushedCache,
  invalidateOnWrite,
  type AnyModel,
  type FlushedCache,
} from '@gl/service-kit';

/**
 * The identity catalogue: users, their personal access tokens, namespaces (groups and personal user
 * namespaces share one id sequence and one path space, as in GitLab), projects, memberships and stars.
 * Read and written only through the stores (identity.stores.ts), which return plain (lean) objects.
 */
/** GitLab's user states the API can reach (app/models/user.rb `state_machine :state`). */
export type UserState = 'active' | 'blocked' | 'banned' | 'deactivated';

/** Profile fields PUT /users/:id sets (lib/api/users.rb `optional_attributes`); absent ones render empty. */
export interface UserProfile {
  location?: string;
  publicEmail?: string;
  skype?: string;
  linkedin?: string;
  twitter?: string;
  discord?: string;
  websiteUrl?: string;
  organization?: string;
  jobTitle?: string;
  pronouns?: string;
  note?: string;
  external?: boolean;
  privateProfile?: boolean;
  themeId?: number;
  colorSchemeId?: number;
  commitEmail?: string;
}

export interface UserDoc {
  _id: number;
  username: string;
  usernameLower: string;
  name: string;
  email: string;
  emailLower: string;
  /** Secondary e-mail addresses; notification_email may be any of these or `email`. */
  emails: string[];
  state: UserState;
  isAdmin: boolean;
  bio: string;
  profile?: UserProfile;
  /** Day of the last authenticated request, `YYYY-MM-DD` (User#last_activity_on, Users::ActivityService). */
  lastActivityOn?: string | null;
  namespaceId: number;
  canCreateGroup: boolean;
  projectsLimit: number;
  passwordHash: string | null;
  /** The newest identity revision of a change to this user's memberships (identity/revisions.ts). */
  accessRevision?: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface TokenDoc {
  _id: number;
  userId: number;
  name: string;
  /** SHA-256 of the token, hex; the token itself is shown once and never stored. */
  tokenHash: string;
  scopes: string[];
  expiresAt: string | null;
  revoked: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface NamespaceDoc {
  _id: number;
  kind: 'group' | 'user';
  name: string;
  path: string;
  fullPath: string;
  fullPathLower: string;
  /** Full name with ancestors, "Parent / Child". */
  fullName: string;
  parentId: number | null;
  /** Ancestor group ids, outermost first. */
  ancestorIds: number[];
  visibility: 'private' | 'internal' | 'public';
  description: string;
  ownerId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ProjectDoc {
  _id: number;
  name: string;
  path: string;
  fullPath: string;
  fullPathLower: string;
  namespaceId: number;
  namespaceKind: 'group' | 'user';
  /** Groups containing the project, outermost first; empty in a personal namespace. */
  ancestorGroupIds: number[];
  visibility: 'private' | 'internal' | 'public';
  description: string;
  defaultBranch: string;
  /** Feature access levels set on the project; absent ones have their defaults (project-features.ts). */
  features?: Partial<Record<ProjectFeature, FeatureAccessLevel>>;
  creatorId: number;
  starCount: number;
  createdAt: Date;
  updatedAt: Date;
  lastActivityAt: Date;
}

export interface MemberDoc {
  _id: number;
  sourceType: 'group' | 'project';
  sourceId: number;
  userId: number;
  accessLevel: number;
  expiresAt: string | null;
  createdBy: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface StarDoc {
  _id: string;
  userId: number;
  projectId: number;
  createdAt: Date;
}

/** A named identity revision, e.g. `visibility` (identity/revisions.ts). */
export interface RevisionDoc {
  _id: string;
  value: number;
}

/** Path ownership: one document per lower-cased full path, so a group and a project cannot share a path. */
export interface RouteDoc {
  _id: string;
  sourceType: 'namespace' | 'project';
  sourceId: number;
}

export interface IdentityModels {
  users: Model<UserDoc>;
  tokens: Model<TokenDoc>;
  namespaces: Model<NamespaceDoc>;
  projects: Model<ProjectDoc>;
  members: Model<MemberDoc>;
  stars: Model<StarDoc>;
  routes: Model<RouteDoc>;
  revisions: Model<RevisionDoc>;
  /** Short-lived cache of the lookups every request makes; flushed by any write through these models. */
  cache: FlushedCache;
}

export const DEFAULT_IDENTITY_CACHE_TTL_MS = 5_000;

/** One cache per connection, so models created twice on one connection share it (and its invalidation). */
const caches = new WeakMap<Connection, FlushedCache>();

const timestamps = { createdAt: 'createdAt', updatedAt: 'updatedAt' } as const;

/** The schema of a document that publishes its identity events with its own writes (the outbox fields). */
function publishingSchema<T>(fields: SchemaDefinition<T>): Schema<T> {
  const schema = new Schema<T>(fields, { versionKey: false, timestamps });
  addOutboxFields(schema);
  return schema;
}

function userSchema(): Schema<UserDoc> {
  const schema = publishingSchema<UserDoc>({
    _id: Number,
    username: String,
    usernameLower: { type: String, unique: true },
    name: String,
    email: String,
    emailLower: { type: String, unique: true },
    emails: [String],
    state: String,
    isAdmin: Boolean,
    bio: String,
    profile: Schema.Types.Mixed,
    lastActivityOn: String,
    namespaceId: Number,
    canCreateGroup: Boolean,
    projectsLimit: Number,
    passwordHash: String,
    accessRevision: Number,
  });
  // GET /users's orders, each with the id after it: keyset pages (users.keyset.ts) seek them from the cursor.
  for (const field of ['name', 'username', 'createdAt', 'updatedAt']) schema.index({ [field]: 1, _id: 1 });
  return schema;
}

function tokenSchema(): Schema<TokenDoc> {
  const schema = new Schema<TokenDoc>(
    {
      _id: Number,
      userId: { type: Number, index: true },
      name: String,
      tokenHash: { type: String, unique: true },
      scopes: [String],
      expiresAt: String,
      revoked: Boolean,
      createdAt: Date,
      lastUsedAt: Date,
    },
    { versionKey: false },
  );
  return schema;
}

/** What groups and projects share as routables (GitLab's Routable concern): a name and a unique full path. */
const routableFields = {
  name: String,
  path: String,
  fullPath: String,
  fullPathLower: { type: String, unique: true },
};

function namespaceSchema(): Schema<NamespaceDoc> {
  const schema = publishingSchema<NamespaceDoc>({
    _id: Number,
    kind: String,
    ...routableFields,
    fullName: String,
    parentId: { type: Number, index: true },
    ancestorIds: { type: [Number], index: true },
    visibility: String,
    description: String,
    ownerId: Number,
  });
  // Keyset pages of groups (name, then id: groups.finder.ts listByName) seek it from the cursor.
  schema.index({ name: 1, _id: 1 });
  return schema;
}

function projectSchema(): Schema<ProjectDoc> {
  return publishingSchema<ProjectDoc>({
    _id: Number,
    ...routableFields,
    namespaceId: { type: Number, index: true },
    namespaceKind: String,
    ancestorGroupIds: { type: [Number], index: true },
    visibility: { type: String, index: true },
    description: String,
    defaultBranch: String,
    features: Schema.Types.Mixed,
    creatorId: Number,
    starCount: Number,
    lastActivityAt: Date,
  });
}

function memberSchema(): Schema<MemberDoc> {
  const schema = publishingSchema<MemberDoc>({
    _id: Number,
    sourceType: String,
    sourceId: Number,
    userId: { type: Number, index: true },
    accessLevel: Number,
    expiresAt: String,
    createdBy: Number,
  });
  schema.index({ sourceType: 1, sourceId: 1, userId: 1 }, { unique: true });
  // The expired-members sweep reads expired memberships in this order.
  schema.index({ expiresAt: 1, _id: 1 });
  return schema;
}

function starSchema(): Schema<StarDoc> {
  const schema = new Schema<StarDoc>(
    {
      _id: String,
      userId: { type: Number, index: true },
      projectId: { type: Number, index: true },
      createdAt: Date,
    },
    { versionKey: false },
  );
  return schema;
}

function routeSchema(): Schema<RouteDoc> {
  return new Schema<RouteDoc>({ _id: String, sourceType: String, sourceId: Number }, { versionKey: false });
}

function revisionSchema(): Schema<RevisionDoc> {
  return new Schema<RevisionDoc>({ _id: String, value: Number }, { versionKey: false });
}

export function createIdentityModels(
  connection: Connection,
  options: { cacheTtlMs?: number } = {},
): IdentityModels {
  let cache = caches.get(connection);
  if (!cache) {
    cache = createFlushedCache(options.cacheTtlMs ?? DEFAULT_IDENTITY_CACHE_TTL_MS);
    caches.set(connection, cache);
  }
  const model = <T>(name: string, schema: Schema<T>, collection: string): Model<T> => {
    const existing = connection.models[name] as Model<T> | undefined;
    if (existing) return existing;
    invalidateOnWrite(schema, () => caches.get(connection));
    return connection.model<T>(name, schema, collection);
  };
  return {
    cache,
    users: model('User', userSchema(), 'users'),
    tokens: model('PersonalAccessToken', tokenSchema(), 'personal_access_tokens'),
    namespaces: model('Namespace', namespaceSchema(), 'namespaces'),
    projects: model('Project', projectSchema(), 'projects'),
    members: model('Member', memberSchema(), 'members'),
    stars: model('Star', starSchema(), 'stars'),
    routes: model('Route', routeSchema(), 'routes'),
    revisions: model('IdentityRevision', revisionSchema(), 'identity_revisions'),
  };
}

/** The models as a list, for registering with the outbox and building indexes at start. */
export function identityModelList(models: IdentityModels): AnyModel[] {
  return [
    models.users,
    models.tokens,
    models.namespaces,
    models.projects,
    models.members,
    models.stars,
    models.routes,
  ];
}
