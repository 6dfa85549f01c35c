import { DOMAIN_EVENT_TYPES, type EventEnvelope } from '@gl/contracts';
import issueFixture from './fixtures/issue-event.json';
import mergeRequestFixture from './fixtures/merge-request-event.json';
import noteFixture from './fixtures/note-on-issue-event.json';
import { buildPayload, scopeOf, SCOPES } from './build';
import {
  fakeDiscussions,
  testIssue,
  testMergeRequest,
  testNote,
  testNoteCreatedData,
  testProjectCopy,
  testUser,
} from './fake-discussions.test-helpers';
import { payloadProject } from './project';

const T = DOMAIN_EVENT_TYPES.discussions;

/**
 * Keys of the documented examples (doc/user/project/integrations/webhook_events.md) this service does not
 * send: EE incident management and health status, the examples' `changes` of an update (opened, closed and
 * reopened carry none), the deprecated top-level `assignee` the issue example still shows (the builder,
 * lib/gitlab/data_builder/issuable.rb, sends only `assignees`), and an old note example's issue columns
 * (`position`, `branch_name`) IssueBuilder no longer sends.
 */
const NOT_SENT = new Set([
  'object_attributes.health_status',
  'object_attributes.escalation_status',
  'object_attributes.escalation_policy',
  'changes.updated_by_id',
  'changes.updated_at',
  'changes.labels',
  'changes.draft',
  'changes.last_edited_at',
  'changes.last_edited_by_id',
  'assignee',
  'issue.position',
  'issue.branch_name',
]);

/**
 * Values this service does not know and sends as null (GitLab fills them from columns it keeps): a label's dates and group, the project's description, the avatar of an author not shown by the
 * entity, a position before boards placed the issue.
 */
const NULL_HERE = new Set([
  'object_attributes.relative_position',
  'object_attributes.discussion_locked',
  'object_attributes.weight',
  'object_attributes.commit_id',
  'project.description',
  'repository.description',
  'labels.created_at',
  'labels.updated_at',
  'labels.group_id',
  'object_attributes.labels.created_at',
  'object_attributes.labels.updated_at',
  'object_attributes.labels.group_id',
  'issue.labels.created_at',
  'issue.labels.updated_at',
  'issue.labels.group_id',
  'issue.labels.project_id',
  // Null in GitLab too until set: never edited, no time tracked, no CI configuration path.
  'project.ci_config_path',
  'object_attributes.last_edited_at',
  'object_attributes.last_edited_by_id',
  'object_attributes.human_total_time_spent',
  'object_attributes.human_time_change',
  'object_attributes.human_time_estimate',
  'object_attributes.source.description',
  'object_attributes.target.description',
]);

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/** Every documented key is in ours with the same JSON type (arrays: their first elements compared). */
function shapeDifferences(expected: unknown, actual: unknown, path = ''): string[] {
  if (NOT_SENT.has(path)) return [];
  const want = typeOf(expected);
  const got = typeOf(actual);
  if (want !== got) {
    if (got === 'null' && NULL_HERE.has(path)) return [];
    if (want === 'null' && got !== 'undefined') return []; // documented as null: any value will do
    return [`${path}: ${want} expected, ${got} sent`];
  }
  if (want === 'array') {
    const [first] = expected as unknown[];
    const [mine] = actual as unknown[];
    return first === undefined || mine === undefined ? [] : shapeDifferences(first, mine, path);
  }
  if (want !== 'object') return [];
  return Object.keys(expected as object).flatMap((key) =>
    shapeDifferences(
      (expected as Record<string, unknown>)[key],
      (actual as Record<string, unknown>)[key],
      path ? `${path}.${key}` : key,
    ),
  );
}

const event = (type: string, projectId: number, data: Record<string, unknown>): EventEnvelope => ({
  id: '8a2c7a52-1f0e-4a39-9d5f-0c3c5d1f6a11',
  type,
  version: 1,
  occurredAt: '2026-01-02T03:04:05.000Z',
  producer: 'discussions',
  correlationId: null,
  actor: { id: 2, username: 'user2', name: 'User 2' },
  projectId,
  groupId: null,
  data,
});

const project = payloadProject(42, testProjectCopy());

describe('Hook payloads', () => {
  it('When a documented key is missing or of another type, then the comparison names it', () => {
    expect(shapeDifferences({ a: 1, b: { c: 'x' } }, { b: { c: 2 } })).toEqual([
      'a: number expected, undefined sent',
      'b.c: string expected, number sent',
    ]);
  });

  it("When an issue is opened, then its payload has every key of GitLab's documented Issue Hook example", async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7, { updated_by_id: 5 }));
    const opened = event(T.issueOpened, 42, { targetId: 42007, targetIid: 7, targetTitle: 'Issue 7' });
    const scope = scopeOf(opened)!;
    expect(scope).toBe(SCOPES.issue);
    const payload = await buildPayload(
      { event: opened, project, externalUrl: 'http://gl.test', source },
      scope,
    );
    expect(shapeDifferences(issueFixture, payload)).toEqual([]);
    expect(payload).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      user: { id: 2, username: 'user2', email: '[REDACTED]' },
      project: {
        id: 42,
        path_with_namespace: 'group/project-42',
        web_url: 'http://gl.test/group/project-42',
      },
      object_attributes: {
        iid: 7,
        action: 'open',
        state: 'opened',
        labels: [{ title: 'bug', id: 3 }],
        updated_by_id: 5,
      },
      assignees: [{ id: 4 }],
    });
  });

  it('When discussions shows no updated_by_id (never updated, or an older one), then the payloads send null', async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7, { updated_by_id: null }));
    source.mergeRequests.set('42:3', testMergeRequest(42, 3));
    const opened = event(T.issueOpened, 42, { targetId: 42007, targetIid: 7, targetTitle: 'Issue 7' });
    const merged = event(T.mergeRequestMerged, 42, { targetId: 42503, targetIid: 3, targetTitle: 'MR 3' });
    const build = (e: EventEnvelope) =>
      buildPayload({ event: e, project, externalUrl: 'http://gl.test', source }, scopeOf(e)!);
    expect(await build(opened)).toMatchObject({ object_attributes: { updated_by_id: null } });
    expect(await build(merged)).toMatchObject({ object_attributes: { updated_by_id: null } });
  });

  it('When a confidential issue is closed, then it goes to confidential issue hooks as `confidential_issue`', async () => {
    const source = fakeDiscussions();
    source.issues.set('42:8', testIssue(42, 8, { confidential: true, state: 'closed' }));
    const closed = event(T.issueClosed, 42, {
      targetId: 42008,
      targetIid: 8,
      targetTitle: 'Issue 8',
      audience: { confidential: true },
    });
    const scope = scopeOf(closed)!;
    expect(scope).toBe(SCOPES.confidentialIssue);
    const payload = await buildPayload(
      { event: closed, project, externalUrl: 'http://gl.test', source },
      scope,
    );
    expect(payload).toMatchObject({
      event_type: 'confidential_issue',
      object_attributes: { action: 'close' },
    });
  });

  it("When an issue is commented, then the Note Hook payload has every key of GitLab's documented example", async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7, { updated_by_id: 6 }));
    source.notes.set('42:99', testNote(42, 7, 99));
    const created = event(T.noteCreated, 42, testNoteCreatedData());
    const scope = scopeOf(created)!;
    expect(scope).toBe(SCOPES.note);
    const payload = await buildPayload(
      { event: created, project, externalUrl: 'http://gl.test', source },
      scope,
    );
    expect(shapeDifferences(noteFixture, payload)).toEqual([]);
    expect(payload).toMatchObject({
      object_kind: 'note',
      project_id: 42,
      object_attributes: {
        id: 99,
        note: 'Hello world',
        discussion_id: 'a'.repeat(40),
        url: 'http://localhost/group/project-42/-/issues/7#note_99',
      },
      // Issue#hook_attrs, updated_by_id included; the note's own updated_by_id is Note's, unknown here.
      issue: { iid: 7, updated_by_id: 6 },
    });
  });

  it('When a new issue comment carries its whole body and its author avatar, then its payload is built without reading the note back, the same as one read back', async () => {
    const data = testNoteCreatedData();
    const build = async (extra: Record<string, unknown>, body = data.body) => {
      const source = fakeDiscussions();
      source.issues.set('42:7', testIssue(42, 7));
      source.notes.set('42:99', { ...testNote(42, 7, 99), body, updated_at: '2026-01-02T03:05:05.000Z' });
      const created = event(T.noteCreated, 42, { ...data, body, ...extra });
      const payload = await buildPayload(
        { event: created, project, externalUrl: 'http://gl.test', source },
        scopeOf(created)!,
      );
      return { payload, reads: source.reads };
    };
    const readBack = await build({});
    const carried = await build({ authorAvatarUrl: testUser(2).avatar_url });
    expect(readBack.reads).toBe(2);
    expect(carried.reads).toBe(1);
    expect(shapeDifferences(noteFixture, carried.payload)).toEqual([]);
    expect(carried.payload).toEqual(readBack.payload);
    // A body cut in the event (its excerpt) is read back whole.
    const long = `${'x'.repeat(996)}...`;
    expect((await build({ authorAvatarUrl: null }, long)).reads).toBe(2);
  });

  it("When a merge request is merged, then its payload has every key of GitLab's documented Merge Request Hook example", async () => {
    const source = fakeDiscussions();
    source.mergeRequests.set(
      '42:3',
      testMergeRequest(42, 3, { state: 'merged', labels: testIssue(42, 1).labels, updated_by_id: 2 }),
    );
    const merged = event(T.mergeRequestMerged, 42, { targetId: 42503, targetIid: 3, targetTitle: 'MR 3' });
    const scope = scopeOf(merged)!;
    expect(scope).toBe(SCOPES.mergeRequest);
    const payload = await buildPayload(
      { event: merged, project, externalUrl: 'http://gl.test', source },
      scope,
    );
    expect(shapeDifferences(mergeRequestFixture, payload)).toEqual([]);
    expect(payload).toMatchObject({
      object_kind: 'merge_request',
      object_attributes: {
        iid: 3,
        action: 'merge',
        state: 'merged',
        updated_by_id: 2,
        source: { path_with_namespace: 'group/project-42' },
        last_commit: {
          url: 'http://localhost/group/project-42/-/commit/da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
        },
      },
      labels: [{ title: 'bug', id: 3 }],
      reviewers: [{ id: 5 }],
    });
  });

  it('When a note is internal, or on a confidential issue, then it goes to confidential note hooks', () => {
    const base = { noteId: 1, noteType: null, discussionId: 'x', body: 'b', system: false, createdAt: 'now' };
    const noteable = {
      noteableType: 'Issue',
      noteableId: 1,
      noteableIid: 1,
      commitId: null,
      targetTitle: 't',
    };
    const internal = event(T.noteCreated, 42, { ...base, ...noteable, audience: { internal: true } });
    const onConfidential = event(T.noteCreated, 42, {
      ...base,
      ...noteable,
      audience: { confidential: true },
    });
    expect(scopeOf(internal)).toBe(SCOPES.confidentialNote);
    expect(scopeOf(onConfidential)).toBe(SCOPES.confidentialNote);
  });
});
