import type { IntendedScan } from './scan-report';

const PROJECT_LIST =
  'GET /projects and group project lists: the visibility rule (public/internal, or a membership of the ' +
  'project or an ancestor group) spans the collection like GitLab ProjectsFinder, and X-Total counts it';
const GROUP_LIST =
  'GET /groups: the visibility rule spans the collection like GitLab GroupsFinder, and X-Total counts it';
const USER_LIST = 'GET /users (admin): every user, paged along the _id index; X-Total counts the collection';
const ADMIN_IDENTITY_LIST =
  'GET /personal_access_tokens and /namespaces by an admin: every token or namespace, paged along the _id ' +
  'index like GitLab (PersonalAccessTokensFinder, Namespace.all); X-Total counts the collection';
const ACTIVITY_VISIBILITY =
  'GET /events and /users/:id/events check each event against the visibility of every project and group; ' +
  'the events service keeps those rows for at most 5 s (access.cache.ts) and reloads them whole';
const BOARD_TARGETS =
  'DELETE of a label or milestone finds the boards that list it in any group (a subgroup board may use an ' +
  "ancestor's label); SQLite indexes cannot hold array elements, so it reads the boards, once per deletion";

const DELETED_USER =
  "gl.identity.user.destroyed (DELETE /users/:id): discussions finds the deleted user's notes and the " +
  "closed_by / merged_by / resolved_by GitLab's foreign keys nullify, once per deleted user, in batches of " +
  '500 and at most 40 statements a delivery (apps/discussions/src/copies/users.store.ts)';

/**
 * Query shapes that read a whole collection on purpose, each with its reason. Everything else the stack
 * asks its database during the end-to-end suites must be answered by an index.
 */
const GHOST_MIGRATION =
  'gateway migration 3 (ghost-user.ts) creates the Ghost User once per database: it looks for the namespace ' +
  'an interrupted run left, and takes ids past the highest stored one (the _id index walked from its end)';

const MILESTONE_MIGRATIONS =
  'boards migration 3 (milestone-definitions.ts) publishes the milestones written before ' +
  'gl.boards.milestone.defined, and discussions migration 6 (milestone-due.ts) reads the dated milestone ' +
  'copies: once per database, over the milestones only';

const LABEL_MIGRATION =
  'boards migration 6 (label-definitions.ts) publishes the group and project labels written before ' +
  'gl.boards.label.defined: once per database, over the labels only';

const ROOT_SCOPE_MIGRATION =
  "discussions migration 8 (issue-root-scopes.ts) gives every issue its project's root scope: it reads the " +
  'copy of projects once per database, then updates their issues project by project along the list index';

const NOTEABLE_COUNTS_MIGRATION =
  'discussions migration 10 (noteable-counts.ts) counts the comments of every noteable once per database, ' +
  'to keep user_notes_count on each noteable from then on (notes/note-counts.ts)';

const EPIC_HINTS_MIGRATION =
  'discussions migration 11 (epic-hints.ts) reads every epic link once per database, to mark the issues ' +
  'that may have an epic (NoteableDoc.mayHaveEpic)';

export const INTENDED_SCANS: readonly IntendedScan[] = [
  { service: 'discussions', collection: 'epic_issues', filter: '{}', reason: EPIC_HINTS_MIGRATION },
  {
    service: 'discussions',
    collection: 'notes',
    filter: '{"noteableId": {"$ne": types.NullType}, "system": bool}',
    reason: NOTEABLE_COUNTS_MIGRATION,
  },
  {
    service: 'discussions',
    collection: 'projects',
    filter: '{"destroyed": {"$ne": bool}}',
    reason: ROOT_SCOPE_MIGRATION,
  },
  { service: 'gateway', collection: 'projects', filter: '{"$and": [{}, ...]}', reason: PROJECT_LIST },
  {
    collection: 'projects',
    filter: '{"$and": [{"$or": [{"visibility": {"$in": [string, ...]}}, ...]}, ...]}',
    reason: PROJECT_LIST,
  },
  { collection: 'namespaces', filter: '{"$and": [{"kind": string}, ...]}', reason: GROUP_LIST },
  { service: 'gateway', collection: 'users', filter: '{}', reason: USER_LIST },
  { service: 'gateway', collection: 'personal_access_tokens', filter: '{}', reason: ADMIN_IDENTITY_LIST },
  { service: 'gateway', collection: 'namespaces', filter: '{}', reason: ADMIN_IDENTITY_LIST },
  { service: 'events', collection: 'projects', filter: '{}', reason: ACTIVITY_VISIBILITY },
  { service: 'events', collection: 'groups', filter: '{}', reason: ACTIVITY_VISIBILITY },
  { collection: 'boards', filter: '{"lists.targetId": int32}', reason: BOARD_TARGETS },
  { collection: 'boards', filter: '{"labelIds": int32}', reason: BOARD_TARGETS },
  { collection: 'boards', filter: '{"$or": [{"lists.targetId": int32}, ...]}', reason: BOARD_TARGETS },
  {
    service: 'events',
    collection: 'author_removals',
    filter: '{}',
    sort: '{"_id": 1}',
    reason:
      'the deleted-author job reads its pending orders (one per deleted user, gone once carried out) on each run',
  },
  {
    collection: 'outbox_dead_letters',
    filter: '{}',
    reason: 'the outbox_dead_letters gauge counts the set-aside events on each /metrics scrape',
  },
  { service: 'discussions', collection: 'notes', filter: '{"author.id": int32}', reason: DELETED_USER },
  { service: 'discussions', collection: 'notes', filter: '{"resolvedBy.id": int32}', reason: DELETED_USER },
  { service: 'discussions', collection: 'noteables', filter: '{"closedBy.id": int32}', reason: DELETED_USER },
  { service: 'discussions', collection: 'noteables', filter: '{"mergedBy.id": int32}', reason: DELETED_USER },
  {
    service: 'gateway',
    collection: 'namespaces',
    filter: '{"kind": string, "ownerId": int32}',
    reason: GHOST_MIGRATION,
  },
  {
    service: 'gateway',
    collection: 'user_emails',
    filter: '{}',
    sort: '{"_id": -1}',
    reason: GHOST_MIGRATION,
  },
  {
    service: 'gateway',
    collection: 'namespaces',
    filter: '{}',
    sort: '{"_id": -1}',
    reason: GHOST_MIGRATION,
  },
  {
    service: 'boards',
    collection: 'milestones',
    filter: '{"revision": types.NullType}',
    reason: MILESTONE_MIGRATIONS,
  },
  {
    service: 'discussions',
    collection: 'milestones',
    filter: '{"dueDate": {"$gte": string}}',
    reason: MILESTONE_MIGRATIONS,
  },
  ...['labels', 'project_labels'].map((collection) => ({
    service: 'boards',
    collection,
    filter: '{"revision": types.NullType}',
    reason: LABEL_MIGRATION,
  })),
];
