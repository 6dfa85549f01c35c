import type { NoteCreatedData, NoteEntity, SnippetEntity, UserSummary } from '@gl/contracts';
import type { HookProjectDoc } from '../delivery/delivery.models';
import type { DiscussionsSource, HookIssue, HookMergeRequest } from './discussions-source';
import type { PayloadProject } from './project';

/** Project 42's copy in group 9, as identity events leave it. */
export function testProjectCopy(overrides: Partial<HookProjectDoc> = {}): HookProjectDoc {
  return {
    _id: 42,
    name: 'Project 42',
    path: 'project-42',
    fullPath: 'group/project-42',
    namespaceId: 9,
    ancestorGroupIds: [9],
    visibility: 'private',
    occurredAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** `note.created`'s data for comment 99 on issue 7 of project 42 (testNote's). */
export function testNoteCreatedData(overrides: Partial<NoteCreatedData> = {}): NoteCreatedData {
  return {
    noteId: 99,
    noteType: null,
    discussionId: 'a'.repeat(40),
    body: 'Hello world',
    system: false,
    createdAt: '2026-01-02T03:05:05.000Z',
    noteableType: 'Issue',
    noteableId: 42007,
    noteableIid: 7,
    commitId: null,
    targetTitle: 'Issue 7',
    ...overrides,
  };
}

/** Test support: a discussions service in memory, keyed by project id and iid (or note id). */
export interface FakeDiscussions extends DiscussionsSource {
  issues: Map<string, HookIssue>;
  notes: Map<string, NoteEntity>;
  mergeRequests: Map<string, HookMergeRequest>;
  reads: number;
}

export const testUser = (id: number, username = `user${id}`): UserSummary => ({
  id,
  username,
  name: `User ${id}`,
  state: 'active',
  locked: false,
  avatar_url: `https://www.gravatar.com/avatar/${id}?s=80&d=identicon`,
  web_url: `http://localhost/${username}`,
});

export function testIssue(projectId: number, iid: number, overrides: Partial<HookIssue> = {}): HookIssue {
  return {
    id: projectId * 1000 + iid,
    iid,
    project_id: projectId,
    title: `Issue ${iid}`,
    description: 'Something is broken',
    state: 'opened',
    created_at: '2026-01-02T03:04:05.000Z',
    updated_at: '2026-01-02T03:04:05.000Z',
    closed_at: null,
    closed_by: null,
    labels: [
      {
        id: 3,
        name: 'bug',
        color: '#ff0000',
        description: 'A bug',
        description_html: '',
        text_color: '#FFFFFF',
      },
    ],
    milestone: null,
    assignees: [testUser(4)],
    author: testUser(2),
    type: 'ISSUE',
    issue_type: 'issue',
    user_notes_count: 0,
    upvotes: 0,
    downvotes: 0,
    confidential: false,
    discussion_locked: null,
    due_date: null,
    relative_position: null,
    web_url: `http://localhost/group/project-${projectId}/-/issues/${iid}`,
    references: { short: `#${iid}`, relative: `#${iid}`, full: `group/project-${projectId}#${iid}` },
    weight: null,
    ...overrides,
  };
}

export function testMergeRequest(
  projectId: number,
  iid: number,
  overrides: Partial<HookMergeRequest> = {},
): HookMergeRequest {
  const sha = 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7';
  return {
    id: projectId * 1000 + 500 + iid,
    iid,
    project_id: projectId,
    title: `Merge request ${iid}`,
    description: 'Fixes it',
    state: 'opened',
    created_at: '2026-01-02T03:04:05.000Z',
    updated_at: '2026-01-02T03:04:05.000Z',
    merged_by: null,
    merged_at: null,
    closed_by: null,
    closed_at: null,
    source_branch: 'fix',
    target_branch: 'main',
    labels: ['bug'],
    milestone: null,
    author: testUser(2),
    draft: false,
    merge_status: 'can_be_merged',
    sha,
    merge_commit_sha: null,
    diff_refs: { base_sha: sha, head_sha: sha, start_sha: sha },
    user_notes_count: 0,
    web_url: `http://localhost/group/project-${projectId}/-/merge_requests/${iid}`,
    references: { short: `!${iid}`, relative: `!${iid}`, full: `group/project-${projectId}!${iid}` },
    merge_user: null,
    upvotes: 0,
    downvotes: 0,
    assignees: [testUser(4)],
    assignee: testUser(4),
    reviewers: [testUser(5)],
    source_project_id: projectId,
    target_project_id: projectId,
    work_in_progress: false,
    merge_when_pipeline_succeeds: false,
    detailed_merge_status: 'mergeable',
    squash_commit_sha: null,
    discussion_locked: null,
    should_remove_source_branch: null,
    force_remove_source_branch: null,
    prepared_at: '2026-01-02T03:04:06.000Z',
    reference: `!${iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    squash: false,
    squash_on_merge: false,
    task_completion_status: { count: 0, completed_count: 0 },
    has_conflicts: false,
    blocking_discussions_resolved: true,
    merge_error: null,
    first_contribution: false,
    pipeline: null,
    head_pipeline: null,
    ...overrides,
  };
}

export function testNote(
  projectId: number,
  issueIid: number,
  id: number,
  overrides: Partial<NoteEntity> = {},
): NoteEntity {
  return {
    id,
    type: null,
    body: 'Hello world',
    attachment: null,
    author: testUser(2),
    created_at: '2026-01-02T03:05:05.000Z',
    updated_at: '2026-01-02T03:05:05.000Z',
    system: false,
    noteable_id: projectId * 1000 + issueIid,
    noteable_type: 'Issue',
    project_id: projectId,
    resolvable: false,
    confidential: false,
    internal: false,
    imported: false,
    imported_from: 'none',
    noteable_iid: issueIid,
    commands_changes: {},
    ...overrides,
  };
}

export function fakeDiscussions(): FakeDiscussions {
  const issues = new Map<string, HookIssue>();
  const notes = new Map<string, NoteEntity>();
  const mergeRequests = new Map<string, HookMergeRequest>();
  const fake: FakeDiscussions = {
    issues,
    notes,
    mergeRequests,
    reads: 0,
    issue(project: PayloadProject, iid: number) {
      fake.reads += 1;
      return Promise.resolve(issues.get(`${project.id}:${iid}`) ?? null);
    },
    mergeRequest(project: PayloadProject, iid: number) {
      fake.reads += 1;
      return Promise.resolve(mergeRequests.get(`${project.id}:${iid}`) ?? null);
    },
    snippet(): Promise<SnippetEntity | null> {
      fake.reads += 1;
      return Promise.resolve(null);
    },
    note(project: PayloadProject, _noteable: string, noteId: number) {
      fake.reads += 1;
      return Promise.resolve(notes.get(`${project.id}:${noteId}`) ?? null);
    },
  };
  return fake;
}
