import {
  DOMAIN_EVENT_TYPES,
  noteCreatedData,
  targetEventData,
  type EventEnvelope,
  type NoteEntity,
  type UserSummary,
} from '@gl/contracts';
import { eventData } from '@gl/service-kit';
import type { DiscussionsSource } from './discussions-source';
import { issueHookAttrs, labelsOf, mergeRequestHookAttrs } from './issuable';
import { projectHookAttrs, repositoryAttrs, userHookAttrs, type PayloadProject } from './project';

const T = DOMAIN_EVENT_TYPES.discussions;

/** The domain events hooks deliver, and the issuable action each is (IssuableBaseService's hook actions). */
export const ISSUE_ACTIONS: Record<string, string> = {
  [T.issueOpened]: 'open',
  [T.issueClosed]: 'close',
  [T.issueReopened]: 'reopen',
};
export const MERGE_REQUEST_ACTIONS: Record<string, string> = {
  [T.mergeRequestOpened]: 'open',
  [T.mergeRequestClosed]: 'close',
  [T.mergeRequestReopened]: 'reopen',
  [T.mergeRequestMerged]: 'merge',
};
export const DELIVERED_EVENT_TYPES = [
  ...Object.keys(ISSUE_ACTIONS),
  ...Object.keys(MERGE_REQUEST_ACTIONS),
  T.noteCreated,
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
  if (event.type === T.noteCreated) {
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

const ghost = { id: 0, username: 'ghost', name: 'Ghost User' };

const userAttrs = (user: { id: number; name?: string; username?: string; avatar_url?: string | null }) => ({
  id: user.id,
  name: user.name ?? '',
  username: user.username ?? '',
  avatar_url: user.avatar_url ?? null,
  email: '[REDACTED]',
});

/**
 * `hook_data[:assignees] = … if issuable.assignees.any?`, the same for reviewers
 * (lib/gitlab/data_builder/issuable.rb): the key only when someone is there.
 */
function people<K extends string>(key: K, users: Parameters<typeof userAttrs>[0][]) {
  return users.length > 0
    ? ({ [key]: users.map(userAttrs) } as Record<K, ReturnType<typeof userAttrs>[]>)
    : {};
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
    user: userHookAttrs(event.actor ?? ghost, [issue.author, issue.closed_by]),
    project: projectAttrs,
    object_attributes: { ...issueHookAttrs(issue), action: ISSUE_ACTIONS[event.type]! },
    labels: labelsOf(issue, project.id),
    changes: {},
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
    user: userHookAttrs(event.actor ?? ghost, known),
    project: projectAttrs,
    object_attributes: {
      ...mergeRequestHookAttrs(mr, projectAttrs),
      action: MERGE_REQUEST_ACTIONS[event.type]!,
    },
    labels: labelsOf(mr, project.id),
    changes: {},
    repository: repositoryAttrs(project, externalUrl),
    ...people('assignees', mr.assignees),
    ...people('reviewers', mr.reviewers),
  };
}

/** Note#hook_attrs' columns (app/models/note.rb), as Gitlab::DataBuilder::Note#build sends them. */
function noteAttrs(note: NoteEntity, url: string) {
  return {
    attachment: null,
    author_id: note.author.id,
    change_position: null,
    commit_id: note.commit_id ?? null,
    created_at: note.created_at,
    discussion_id: null as string | null,
    id: note.id,
    line_code: null as string | null,
    note: note.body,
    noteable_id: note.noteable_id,
    noteable_type: note.noteable_type,
    original_position: null,
    position: note.position ?? null,
    project_id: note.project_id,
    resolved_at: note.resolved_at ?? null,
    resolved_by_id: note.resolved_by?.id ?? null,
    resolved_by_push: null as boolean | null,
    st_diff: null,
    system: note.system,
    type: note.type,
    updated_at: note.updated_at,
    updated_by_id: null as number | null,
    description: note.body,
    confidential: note.confidential,
    internal: note.internal,
    url,
    action: 'create',
  };
}

/** Gitlab::DataBuilder::Note#build (lib/gitlab/data_builder/note.rb): the note and its noteable. */
async function notePayload(input: BuildInput, scope: HookScope) {
  const { event, project, externalUrl, source } = input;
  const data = eventData(noteCreatedData, event);
  const projectAttrs = projectHookAttrs(project, externalUrl);
  const base = {
    object_kind: 'note',
    event_type: scope === SCOPES.confidentialNote ? 'confidential_note' : 'note',
    project_id: project.id,
    project: projectAttrs,
    repository: repositoryAttrs(project, externalUrl),
  };
  const anchor = `#note_${data.noteId}`;
  /** A note on a noteable read back from discussions: both found, or no payload (either is gone). */
  async function onNoteable<N extends { web_url: string }, A extends object>(
    reading: Promise<N | null>,
    notePath: string,
    noteableAttrs: (noteable: N) => A,
  ) {
    const [noteable, note] = await Promise.all([reading, source.note(project, notePath, data.noteId)]);
    if (!noteable || !note) return null;
    return {
      ...base,
      user: userHookAttrs(event.actor ?? ghost, [note.author]),
      object_attributes: {
        ...noteAttrs(note, `${noteable.web_url}${anchor}`),
        discussion_id: data.discussionId,
      },
      ...noteableAttrs(noteable),
    };
  }
  switch (data.noteableType) {
    case 'Issue':
      return onNoteable(source.issue(project, data.noteableIid!), `issues/${data.noteableIid}`, (issue) => ({
        issue: issueHookAttrs(issue),
      }));
    case 'MergeRequest':
      return onNoteable(
        source.mergeRequest(project, data.noteableIid!),
        `merge_requests/${data.noteableIid}`,
        (mr) => ({ merge_request: mergeRequestHookAttrs(mr, projectAttrs) }),
      );
    case 'Snippet':
      return onNoteable(
        source.snippet(project, data.noteableId!),
        `snippets/${data.noteableId}`,
        (snippet) => ({
          snippet: {
            id: snippet.id,
            title: snippet.title,
            description: snippet.description,
            content: '',
            author_id: snippet.author.id,
            project_id: snippet.project_id,
            created_at: snippet.created_at,
            updated_at: snippet.updated_at,
            file_name: snippet.file_name,
            type: 'ProjectSnippet',
            visibility_level: { private: 0, internal: 10, public: 20 }[snippet.visibility],
            url: snippet.web_url,
          },
        }),
      );
    case 'Commit': {
      // Commit notes are not served by id; the event carries what the payload shows of them.
      const webUrl = projectAttrs.web_url;
      return {
        ...base,
        user: userHookAttrs(event.actor ?? ghost, []),
        object_attributes: {
          attachment: null,
          author_id: event.actor?.id ?? null,
          commit_id: data.commitId,
          created_at: data.createdAt,
          discussion_id: data.discussionId,
          id: data.noteId,
          note: data.body,
          noteable_id: null,
          noteable_type: 'Commit',
          project_id: project.id,
          system: data.system,
          type: data.noteType,
          description: data.body,
          url: `${webUrl}/-/commit/${data.commitId}${anchor}`,
          action: 'create',
        },
        commit: {
          id: data.commitId,
          title: data.targetTitle,
          url: `${webUrl}/-/commit/${data.commitId}`,
        },
      };
    }
    default:
      return null;
  }
}

/** The payload of an event GitLab sends to hooks of `scope`, or null when its object is gone meanwhile. */
export async function buildPayload(
  input: BuildInput,
  scope: HookScope,
): Promise<Record<string, unknown> | null> {
  if (input.event.type in ISSUE_ACTIONS) return issuePayload(input, scope);
  if (input.event.type in MERGE_REQUEST_ACTIONS) return mergeRequestPayload(input);
  if (input.event.type === T.noteCreated) return notePayload(input, scope);
  return null;
}
