/**
 * One place for the names of the bus: the stream, its subjects and the durable consumers.
 * Subjects read `gl.<context>.<object>.<past_verb>`.
 */
export const EVENT_STREAM = 'GL_EVENTS';
/** Domain events: facts any service may consume (the activity log reads every one). */
export const EVENT_SUBJECTS = ['gl.>'];
/**
 * Commands: work a service hands to its own workers (the registry's cleanup jobs). Same stream (the same
 * outbox publishes them), their own subjects, so no consumer of domain events receives them.
 */
export const COMMAND_SUBJECTS = ['cmd.>'];
export const STREAM_SUBJECTS = [...EVENT_SUBJECTS, ...COMMAND_SUBJECTS];

export const COMMAND_TYPES = {
  registry: {
    deleteRepository: 'cmd.registry.repository.delete',
    cleanupTags: 'cmd.registry.tags.cleanup',
  },
} as const;

/**
 * What the registry's jobs were published as before they had subjects of their own: a worker still takes
 * them, so jobs queued by an older build are not lost.
 */
export const LEGACY_COMMAND_TYPES = {
  registry: {
    deleteRepository: 'gl.registry.repository.delete_requested',
    cleanupTags: 'gl.registry.tags.cleanup_requested',
  },
} as const;

export const DURABLES = {
  activityLog: 'events-activity-log',
  registryCleanup: 'registry-cleanup',
  /** The registry's copy of projects, groups and memberships (notification paths, /registry/repositories/:id). */
  registryIdentity: 'registry-identity',
  alertsIncidents: 'alerts-incidents',
  discussionsIncidents: 'discussions-incidents',
  /** Discussions' copy of group milestone titles, for "changed milestone to %title" system notes. */
  discussionsMilestones: 'discussions-milestones',
  /**
   * Discussions' copy of group milestones as they are (state, dates: `gl.boards.milestone.defined`), for
   * the Upcoming and Started filters and the milestone_due order. A durable of its own: a consumer's one
   * filter subject is not turned into several in place.
   */
  discussionsMilestoneCopies: 'discussions-milestone-copies',
  /** Discussions' copy of board definitions, for the issues of a board list and moves between lists. */
  discussionsBoards: 'discussions-boards',
  /** Discussions' copy of group and project labels: renames and deletions reach issues, details reach lists. */
  discussionsLabels: 'discussions-labels',
  /** Discussions' copy of usernames, for "assigned to @user" system notes. */
  discussionsUsers: 'discussions-users',
  /** Discussions' copy of projects and memberships, for group and instance issue and merge request lists. */
  discussionsIdentity: 'discussions-identity',
  notificationsIdentity: 'notifications-identity',
  boardsIdentity: 'boards-identity',
  /** The hooks service's deliveries: issue, merge request and note events queued for the hooks they reach. */
  hooksDelivery: 'hooks-delivery',
} as const;

export const EVENT_TYPES = {
  identity: {
    userCreated: 'gl.identity.user.created',
    userUpdated: 'gl.identity.user.updated',
    /** DELETE /users/:id: the user is gone; their contributions go too (`hardDelete`) or pass to the Ghost User. */
    userDestroyed: 'gl.identity.user.destroyed',
    groupCreated: 'gl.identity.group.created',
    groupUpdated: 'gl.identity.group.updated',
    groupDestroyed: 'gl.identity.group.destroyed',
    projectCreated: 'gl.identity.project.created',
    projectUpdated: 'gl.identity.project.updated',
    projectDestroyed: 'gl.identity.project.destroyed',
    memberAdded: 'gl.identity.member.added',
    memberUpdated: 'gl.identity.member.updated',
    memberRemoved: 'gl.identity.member.removed',
    memberExpired: 'gl.identity.member.expired',
  },
} as const;
