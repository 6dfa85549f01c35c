import { z } from 'zod';

/**
 * Subjects and payloads (`data`) of the domain events the services publish. Shared here because more than
 * one service reads them: the events service turns them into activity events, the alerts and discussions
 * services link alerts and incident issues. Evolve additively: new optional fields, never renamed ones.
 */
/**
 * The longest free text a domain event carries, in characters (UTF-16 code units, what `.max()` counts).
 * Events carry what consumers need — ids, titles, short excerpts — never unbounded text: every event must
 * fit the broker's `max_payload`, and the events service stores each one in its activity log. Builders cut
 * longer text with the service kit's `excerpt(text, max)` (its start and "...", ActiveSupport's truncate).
 */
export const EVENT_TEXT_LIMITS = {
  /** Issue, merge request, snippet, epic, milestone and alert titles: GitLab validates titles to 255. */
  title: 255,
  /**
   * A note's body as the activity log shows it (the events API's `note.body`): its first 1,000 characters.
   * GitLab's own activity feed shows a note's first line cut at 150 (app/helpers/events_helper.rb,
   * event_note), and the full note is always read from the notes API. 1,000 keeps an activity document
   * and a page of 100 of them small.
   */
  noteBody: 1_000,
  /** An alert's description: AlertManagement::Alert keeps 1,000 characters (DESCRIPTION_MAX_LENGTH). */
  alertDescription: 1_000,
  /**
   * An alert's service, monitoring tool, environment name and hosts (each host, and how many): GitLab
   * validates them to 100 (service, monitoring_tool) and 255 (hosts joined),
   * app/models/alert_management/alert.rb.
   */
  alertField: 255,
  /**
   * A user's avatar_url carried in an event (a note author's, for webhook payloads): a URL, which browsers
   * and proxies commonly cap near 2,000 characters; a longer one is left out and read where it is kept.
   */
  avatarUrl: 2_048,
  /** push_data.commit_title: the first line cut at 70 (PushEventPayloadService#commit_title). */
  commitTitle: 70,
  /**
   * A label's description in its definition event: the first 1,000 characters. GitLab allows 512 KB, but a
   * label's description is a line of help text; issue lists' `with_labels_details` show what the copy has.
   */
  labelDescription: 1_000,
  /**
   * An issue's or merge request's description before and after an update (issuableUpdatedData): the first
   * 1,000 characters of each. GitLab allows 1 MB (Issuable::DESCRIPTION_LENGTH_MAX); a hook reading the
   * issuable shows the whole current one when it is still what the event saw.
   */
  issuableDescription: 1_000,
} as const;

export const DOMAIN_EVENT_TYPES = {
  boards: {
    milestoneOpened: 'gl.boards.milestone.opened',
    milestoneClosed: 'gl.boards.milestone.closed',
    /** A closed milestone activated again (GitLab's `reopened` activity). */
    milestoneReopened: 'gl.boards.milestone.reopened',
    /** A milestone as it now is (title, state, dates), after each create and update: see milestoneDefinedData. */
    milestoneDefined: 'gl.boards.milestone.defined',
    /**
     * A project milestone as it now is: see projectMilestoneDefinedData. A subject of its own, so the
     * consumers of group milestones' definitions (keyed by group) do not receive what they cannot read.
     */
    projectMilestoneDefined: 'gl.boards.project_milestone.defined',
    /** A project milestone deleted, or merged into a group milestone by a promotion: see projectMilestoneRemovedData. */
    projectMilestoneRemoved: 'gl.boards.project_milestone.removed',
    /** A board's definition (scope and lists) as it now is, or its deletion: see boardDefinedData. */
    boardDefined: 'gl.boards.board.defined',
    /** A group or project label as it now is, or its deletion: see labelDefinedData. */
    labelDefined: 'gl.boards.label.defined',
  },
  discussions: {
    issueOpened: 'gl.discussions.issue.opened',
    issueClosed: 'gl.discussions.issue.closed',
    issueReopened: 'gl.discussions.issue.reopened',
    /** An issue's hook-relevant fields changed by an update (not its state): see issuableUpdatedData. */
    issueUpdated: 'gl.discussions.issue.updated',
    mergeRequestOpened: 'gl.discussions.merge_request.opened',
    mergeRequestClosed: 'gl.discussions.merge_request.closed',
    mergeRequestReopened: 'gl.discussions.merge_request.reopened',
    mergeRequestMerged: 'gl.discussions.merge_request.merged',
    /** A merge request's hook-relevant fields changed by an update: see issuableUpdatedData. */
    mergeRequestUpdated: 'gl.discussions.merge_request.updated',
    mergeRequestApproved: 'gl.discussions.merge_request.approved',
    snippetCreated: 'gl.discussions.snippet.created',
    epicOpened: 'gl.discussions.epic.opened',
    noteCreated: 'gl.discussions.note.created',
    /** A note's body edited by its author or an admin: see noteChangedData. */
    noteUpdated: 'gl.discussions.note.updated',
    /** A note deleted: see noteChangedData. */
    noteDeleted: 'gl.discussions.note.deleted',
    branchPushed: 'gl.discussions.branch.pushed',
    /** An incident issue was opened for an alert (answer to `gl.alerts.alert.created` with createIncident). */
    incidentOpened: 'gl.discussions.incident.opened',
  },
  alerts: {
    alertCreated: 'gl.alerts.alert.created',
    alertResolved: 'gl.alerts.alert.resolved',
    /** An alert's status set to triggered, acknowledged or ignored (PUT status): see alertUpdatedData. */
    alertUpdated: 'gl.alerts.alert.updated',
  },
} as const;

/**
 * Who may read an event's target beyond what its kind and its project or group decide, as it was when the
 * event was published: confidential issues and epics, a snippet's visibility, an internal note; the author
 * and assignees for IssuablePolicy's exceptions. The events service applies the same read rule as the
 * target's own service with it. Optional: events published before it existed carry none.
 */
export const targetAudience = z.object({
  confidential: z.boolean().optional(),
  /** A note: internal (Reporter and up only). */
  internal: z.boolean().optional(),
  /** A snippet: its own visibility level. */
  visibility: z.enum(['private', 'internal', 'public']).optional(),
  authorId: z.number().int().optional(),
  assigneeIds: z.array(z.number().int()).optional(),
});
export type TargetAudience = z.infer<typeof targetAudience>;

/**
 * Issues, merge requests, snippets, epics and milestones: what the activity log shows as the target.
 * `targetIid` is null for things without an iid (snippets).
 */
export const targetEventData = z.object({
  targetId: z.number().int(),
  targetIid: z.number().int().nullable(),
  targetTitle: z.string().max(EVENT_TEXT_LIMITS.title),
  audience: targetAudience.optional(),
});
export type TargetEventData = z.infer<typeof targetEventData>;

export const noteableType = z.enum(['Issue', 'MergeRequest', 'Snippet', 'Epic', 'Commit']);

/** `gl.discussions.note.created`: enough for GitLab's event `note` object without asking discussions. */
export const noteCreatedData = z.object({
  noteId: z.number().int(),
  /** GitLab's note type: null (single comment), DiscussionNote or DiffNote. */
  noteType: z.enum(['DiscussionNote', 'DiffNote']).nullable(),
  discussionId: z.string(),
  /** An excerpt: the first EVENT_TEXT_LIMITS.noteBody characters (then "...") of a longer note. */
  body: z.string().max(EVENT_TEXT_LIMITS.noteBody),
  system: z.boolean(),
  createdAt: z.string(),
  noteableType,
  /** Database id of the noteable; null for commits. */
  noteableId: z.number().int().nullable(),
  noteableIid: z.number().int().nullable(),
  /** Commit SHA for commit notes, else null. */
  commitId: z.string().nullable(),
  /** Title of the thing commented on (the event's target_title). */
  targetTitle: z.string().max(EVENT_TEXT_LIMITS.title),
  /** The noteable's audience, with `internal` for an internal note. */
  audience: targetAudience.optional(),
  /**
   * The author's avatar_url as the note was written (User#hook_attrs shows it): with the whole body, a new
   * comment's webhook payload needs no read of the note. Absent from older events, and when longer than
   * EVENT_TEXT_LIMITS.avatarUrl.
   */
  authorAvatarUrl: z.string().max(EVENT_TEXT_LIMITS.avatarUrl).nullable().optional(),
});
export type NoteCreatedData = z.infer<typeof noteCreatedData>;

/** A note event's `authorAvatarUrl`: the author's avatar_url when it fits its bound, else none. */
export function carriedAuthorAvatar(url: string | null): Pick<NoteCreatedData, 'authorAvatarUrl'> {
  return url === null || url.length <= EVENT_TEXT_LIMITS.avatarUrl ? { authorAvatarUrl: url } : {};
}

/** `gl.discussions.branch.pushed`: GitLab's push_data. */
export const branchPushedData = z.object({
  ref: z.string(),
  refType: z.enum(['branch', 'tag']),
  /** GitLab's push_data.action: created (new ref), pushed (update), removed (deleted ref). */
  action: z.enum(['created', 'pushed', 'removed']),
  commitCount: z.number().int(),
  commitFrom: z.string().nullable(),
  commitTo: z.string().nullable(),
  commitTitle: z.string().max(EVENT_TEXT_LIMITS.commitTitle).nullable(),
});
export type BranchPushedData = z.infer<typeof branchPushedData>;

/**
 * The alert as it stands after the change (AlertManagement::Alert's fields a webhook's `alert` payload
 * shows), for the hooks service's alert_events. Bounded as the alerts service maps payloads
 * (apps/alerts/src/alert-payload.ts: title 200, service and monitoring tool 100, hosts 255 joined,
 * environment 255), each field cut again where it is published. Optional on the older events: those
 * published before it carry none.
 */
export const alertStateData = z.object({
  title: z.string().max(EVENT_TEXT_LIMITS.title),
  severity: z.string().max(16),
  status: z.string().max(16),
  startedAt: z.string().max(40),
  endedAt: z.string().max(40).nullable(),
  /** How many payloads the alert has counted (GitLab's `events`). */
  events: z.number().int(),
  service: z.string().max(EVENT_TEXT_LIMITS.alertField).nullable(),
  monitoringTool: z.string().max(EVENT_TEXT_LIMITS.alertField).nullable(),
  hosts: z.array(z.string().max(EVENT_TEXT_LIMITS.alertField)).max(EVENT_TEXT_LIMITS.alertField),
  environmentName: z.string().max(EVENT_TEXT_LIMITS.alertField).nullable(),
});
export type AlertStateData = z.infer<typeof alertStateData>;

/** `gl.alerts.alert.created`: discussions opens an incident issue when `createIncident` is true. */
export const alertCreatedData = z.object({
  alertId: z.string(),
  alertIid: z.number().int(),
  title: z.string().max(EVENT_TEXT_LIMITS.title),
  description: z.string().max(EVENT_TEXT_LIMITS.alertDescription).nullable(),
  severity: z.string(),
  createIncident: z.boolean(),
  state: alertStateData.optional(),
});
export type AlertCreatedData = z.infer<typeof alertCreatedData>;

/** `gl.alerts.alert.resolved`: discussions closes the alert's incident issue, if any. */
export const alertResolvedData = z.object({
  alertId: z.string(),
  alertIid: z.number().int(),
  state: alertStateData.optional(),
});
export type AlertResolvedData = z.infer<typeof alertResolvedData>;

/** `gl.alerts.alert.updated`: a status other than resolved set on an alert (for webhooks). */
export const alertUpdatedData = z.object({
  alertId: z.string(),
  alertIid: z.number().int(),
  state: alertStateData,
});
export type AlertUpdatedData = z.infer<typeof alertUpdatedData>;

/** `gl.discussions.incident.opened`: alerts records `issue_iid` on the alert. */
export const incidentOpenedData = z.object({
  alertId: z.string(),
  issueId: z.number().int(),
  issueIid: z.number().int(),
});
export type IncidentOpenedData = z.infer<typeof incidentOpenedData>;

/**
 * `gl.boards.board.defined`: the whole definition of one board after a change to it (created, scope
 * updated, lists added, moved or removed, a label renamed or deleted), or `deleted: true`. A state-carrying
 * event: consumers keep the one with the highest `revision` (per board, increasing by one with each
 * publication), so redeliveries and reordering change nothing. Labels are carried with their titles,
 * which is what issues store. Bounded by the size of a board: ids and label titles only.
 */
export const boardDefinedData = z.object({
  boardId: z.number().int(),
  /** A group board's group; null for a project board. */
  groupId: z.number().int().nullable(),
  /** A project board's project (events of older builds carry none: group boards). */
  projectId: z.number().int().nullable().default(null),
  revision: z.number().int(),
  deleted: z.boolean(),
  /** Board scope (EE Boards::BaseService filters): a milestone id, or GitLab's predefined 0 None, -1 Any, -2 Upcoming, -3 Started. */
  milestoneId: z.number().int().nullable(),
  assigneeId: z.number().int().nullable(),
  /** Scope labels (every one required), as titles. */
  labels: z.array(z.string().max(EVENT_TEXT_LIMITS.title)),
  /** Scope weight: null or -1 any, -2 none, else that weight. */
  weight: z.number().int().nullable(),
  /** The movable lists in board order. `labelTitle` for label lists. */
  lists: z.array(
    z.object({
      id: z.number().int(),
      kind: z.enum(['label', 'milestone', 'iteration', 'assignee']),
      targetId: z.number().int(),
      labelTitle: z.string().max(EVENT_TEXT_LIMITS.title).nullable(),
    }),
  ),
  hideBacklogList: z.boolean(),
  hideClosedList: z.boolean(),
});
export type BoardDefinedData = z.infer<typeof boardDefinedData>;

/** A calendar day, `YYYY-MM-DD`, as milestone and issue dates are stored. */
export const calendarDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/**
 * `gl.boards.milestone.defined`: one group milestone as it is after its creation or a change, for the
 * copies other services keep (discussions: the `Upcoming` / `Started` filters and the `milestone_due`
 * order). A state-carrying event: consumers keep the one with the highest `revision` (per milestone,
 * increasing by one with each publication), so redeliveries and reordering change nothing. Bounded:
 * ids, a title and two days.
 */
export const milestoneDefinedData = z.object({
  milestoneId: z.number().int(),
  groupId: z.number().int(),
  iid: z.number().int(),
  revision: z.number().int(),
  title: z.string().max(EVENT_TEXT_LIMITS.title),
  state: z.enum(['active', 'closed']),
  startDate: calendarDay.nullable(),
  dueDate: calendarDay.nullable(),
});
export type MilestoneDefinedData = z.infer<typeof milestoneDefinedData>;

/**
 * `gl.boards.project_milestone.defined`: one project milestone as it is after its creation or a change,
 * what milestoneDefinedData is for a group milestone with `projectId` where that has `groupId` (the same
 * revision rule; ids are shared by both kinds, so a copy keyed by milestone id holds either). Bounded as
 * that is.
 */
export const projectMilestoneDefinedData = milestoneDefinedData
  .omit({ groupId: true })
  .extend({ projectId: z.number().int() });
export type ProjectMilestoneDefinedData = z.infer<typeof projectMilestoneDefinedData>;

/**
 * `gl.boards.project_milestone.removed`: a project milestone is gone. Deleted (Milestones::DestroyService:
 * its issues and merge requests lose their milestone), or merged by a promotion into the group milestone
 * `mergedInto` (Milestones::PromoteService: they move to it). Bounded: ids and a title.
 */
export const projectMilestoneRemovedData = z.object({
  milestoneId: z.number().int(),
  projectId: z.number().int(),
  iid: z.number().int(),
  title: z.string().max(EVENT_TEXT_LIMITS.title),
  mergedInto: z.number().int().nullable(),
});
export type ProjectMilestoneRemovedData = z.infer<typeof projectMilestoneRemovedData>;

/**
 * `gl.boards.label.defined`: one group or project label as it is after its creation, an update or its
 * deletion (`deleted: true`); a promotion defines the group label and deletes the project labels it merges
 * (`mergedInto`).
 * A state-carrying event: consumers keep the one with the highest `revision` (per label, increasing with
 * each write), so redeliveries and reordering change nothing. Issues hold label titles, so consumers rename
 * or remove a title in the label's scope when it changes; `previousTitle` is the title before this write,
 * for a consumer with no copy yet. Bounded: ids, two titles, a colour and a description excerpt.
 */
export const labelDefinedData = z.object({
  labelId: z.number().int(),
  /** A group label's group; null for a project label. */
  groupId: z.number().int().nullable(),
  /** A project label's project; null for a group label. */
  projectId: z.number().int().nullable(),
  revision: z.number().int(),
  deleted: z.boolean(),
  /**
   * A deleted project label merged by a promotion into the group label of this id (Labels::PromoteService
   * moves its links there): its items keep the title, which the group label has too.
   */
  mergedInto: z.number().int().nullable().default(null),
  title: z.string().max(EVENT_TEXT_LIMITS.title),
  previousTitle: z.string().max(EVENT_TEXT_LIMITS.title).nullable(),
  color: z.string().max(EVENT_TEXT_LIMITS.title),
  textColor: z.string().max(EVENT_TEXT_LIMITS.title),
  description: z.string().max(EVENT_TEXT_LIMITS.labelDescription).nullable(),
});
export type LabelDefinedData = z.infer<typeof labelDefinedData>;
