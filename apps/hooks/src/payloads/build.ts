import {
  DOMAIN_EVENT_TYPES,
  issuableUpdatedData,
  noteCreatedData,
  targetEventData,
  type EventEnvelope,
  type IssueEntity,
  type MergeRequestEntity,
  type UserSummary,
} from '@gl/contracts';
import { eventData } from '@gl/service-kit';
import { ALERT_ACTIONS, alertPayload } from './alert';
import { hookChangesOf } from './changes';
import type { DiscussionsSource } from './discussions-source';
import { issueHookAttrs, labelsOf, mergeRequestHookAttrs } from './issuable';
import { NOTE_ACTIONS, notePayload } from './note';
import {
  GHOST_USER,
  projectHookAttrs,
  repositoryAttrs,
  userEntityHookAttrs,
  userHookAttrs,
  type PayloadProject,
} from './project';

const T = DOMAIN_EVENT_TYPES.discussions;

/**
 * The domain events hooks deliver, and the issuable action each is (IssuableBaseService's hook actions;
 * `update` from Issues::UpdateService / MergeRequests::UpdateService#execute_hooks).
 */
export const ISSUE_ACTIONS: Record<string, string> = {
  [T.issueOpened]: 'open',
  [T.issueClosed]: 'close',
  [T.issueReopened]: 'reopen',
  [T.issueUpdated]: 'update',
};
export const MERGE_REQUEST_ACTIONS: Record<string, string> = {
  [T.mergeRequestOpened]: 'open',
  [T.mergeRequestClosed]: 'close',
  [T.mergeRequestReopened]: 'reopen',
  [T.mergeRequestMerged]: 'merge',
  [T.mergeRequestUpdated]: 'update',
};
export const DELIVERED_EVENT_TYPES = [
  ...Object.keys(ISSUE_ACTIONS),
  ...Object.keys(MERGE_REQUEST_ACTIONS),
  ...Object.keys(NOTE_ACTIONS),
  ...Object.keys(ALERT_ACTIONS),
];

/**
 * Which hooks a payload goes to: the hook's event switch, the `trigger` GitLab logs (the hooks scope) and
 * the X-Gitlab-Event header (WebHookService#hook_name).
 */
export interface HookScope {
  flag: string;
  trigger: string;
  eventName: string;
}

export const SCOPES = {
  issue: { flag: 'issues_events', trigger: 'issue_hooks', eventName: 'Issue Hook' },
  confidentialIssue: {
    flag: 'confidential_issues_events',
    trigger: 'confidential_issue_hooks',
    eventName: 'Confidential Issue Hook',
  },
  note: { flag: 'note_events', trigger: 'note_hooks', eventName: 'Note Hook' },
  confidentialNote: {
    flag: 'confidential_note_events',
    trigger: 'confidential_note_hooks',
    eventName: 'Confidential Note Hook',
  },
  mergeRequest: {
    flag: 'merge_requests_events',
    trigger: 'merge_request_hooks',
    eventName: 'Merge Request Hook',
  },
  // Beyond GitLab's webhooks: its integrations' alert_hooks scope, with WebHookService#hook_to_event's name.
  alert: { flag: 'alert_events', trigger: 'alert_hooks', eventName: 'Alert Hook' },
} satisfies Record<string, HookScope>;

/**
 * The scope an event goes to, from the event alone (so hooks are looked up before anything is fetched):
 * Issues::BaseService#execute_hooks picks confidential_issue_hooks for a confidential issue;
 * Notes::PostProcessService#execute_note_hooks picks confidential_note_hooks for an internal note or a
 * note on a confidential noteable (`note.confidential?(include_noteable: true)`).
 */
export function scopeOf(event: EventEnvelope): HookScope | null {
  if (event.type in ISSUE_ACTIONS) {
    const data = eventData(targetEventData, event);
    return data.audience?.confidential ? SCOPES.confidentialIssue : SCOPES.issue;
  }
  if (event.type in MERGE_REQUEST_ACTIONS) return SCOPES.mergeRequest;
  if (event.type in ALERT_ACTIONS) return SCOPES.alert;
  if (event.type in NOTE_ACTIONS) {
    // note.updated / note.deleted carry note.created's fields and more (noteChangedData).
    const data = eventData(noteCreatedData, event);
    if (data.noteableType === 'Epic') return null; // group-level: GitLab has no epic note hooks on projects
    return data.audience?.internal || data.audience?.confidential ? SCOPES.confidentialNote : SCOPES.note;
  }
  return null;
}

export interface BuildInput {
  event: EventEnvelope;
  project: PayloadProject;
  externalUrl: string;
  source: DiscussionsSource;
}

/**
 * `hook_data[:assignees] = … if issuable.assignees.any?`, the same for reviewers
 * (lib/gitlab/data_builder/issuable.rb): the key only when someone is there.
 */
function people<K extends string>(key: K, users: Parameters<typeof userEntityHookAttrs>[0][]) {
  return users.length > 0
    ? ({ [key]: users.map(userEntityHookAttrs) } as Record<K, ReturnType<typeof userEntityHookAttrs>[]>)
    : {};
}

/** `changes`: an update's changed fields (changes.ts); the state hooks send none. */
function changesOf(event: EventEnvelope, entity: IssueEntity | MergeRequestEntity, projectId: number) {
  if (event.type !== T.issueUpdated && event.type !== T.mergeRequestUpdated) return {};
  return hookChangesOf(eventData(issuableUpdatedData, event), entity, projectId);
}

/** Gitlab::DataBuilder::Issuable#build for an issue (lib/gitlab/data_builder/issuable.rb). */
async function issuePayload(input: BuildInput, scope: HookScope) {
  const { event, project, externalUrl, source } = input;
  const data = eventData(targetEventData, event);
  const issue = await source.issue(project, data.targetIid!);
  if (!issue) return null;
  const projectAttrs = projectHookAttrs(project, externalUrl);
  return {
    object_kind: 'issue',
    event_type: scope === SCOPES.confidentialIssue ? 'confidential_issue' : 'issue',
    user: userHookAttrs(event.actor ?? GHOST_USER, [issue.author, issue.closed_by]),
    project: projectAttrs,
    object_attributes: { ...issueHookAttrs(issue), action: ISSUE_ACTIONS[event.type]! },
    labels: labelsOf(issue, project.id),
    changes: changesOf(event, issue, project.id),
    repository: repositoryAttrs(project, externalUrl),
    ...people('assignees', issue.assignees),
  };
}

/** Gitlab::DataBuilder::Issuable#build for a merge request. */
async function mergeRequestPayload(input: BuildInput) {
  const { event, project, externalUrl, source } = input;
  const data = eventData(targetEventData, event);
  const mr = await source.mergeRequest(project, data.targetIid!);
  if (!mr) return null;
  const projectAttrs = projectHookAttrs(project, externalUrl);
  const known: (UserSummary | null)[] = [mr.author, mr.merged_by, mr.closed_by];
  return {
    object_kind: 'merge_request',
    event_type: 'merge_request',
    user: userHookAttrs(event.actor ?? GHOST_USER, known),
    project: projectAttrs,
    object_attributes: {
      ...mergeRequestHookAttrs(mr, projectAttrs),
      action: MERGE_REQUEST_ACTIONS[event.type]!,
    },
    labels: labelsOf(mr, project.id),
    changes: changesOf(event, mr, project.id),
    repository: repositoryAttrs(project, externalUrl),
    ...people('assignees', mr.assignees),
    ...people('reviewers', mr.reviewers),
  };
}

/** The payload of an event GitLab sends to hooks of `scope`, or null when its object is gone meanwhile. */
export async function buildPayload(
  input: BuildInput,
  scope: HookScope,
): Promise<Record<string, unknown> | null> {
  if (input.event.type in ISSUE_ACTIONS) return issuePayload(input, scope);
  if (input.event.type in MERGE_REQUEST_ACTIONS) return mergeRequestPayload(input);
  if (input.event.type in NOTE_ACTIONS) return notePayload(input, scope === SCOPES.confidentialNote);
  if (input.event.type in ALERT_ACTIONS) return alertPayload(input.event, input.project, input.externalUrl);
  return null;
}
