import { DOMAIN_EVENT_TYPES, type EventEnvelope } from '@gl/contracts';
import issueFixture from './fixtures/issue-event.json';
import { buildPayload, scopeOf, SCOPES } from './build';
import {
  fakeDiscussions,
  testIssue,
  testMergeRequest,
  testNote,
  testNoteCreatedData,
  testUser,
} from './fake-discussions.test-helpers';
import { payloadProject } from './project';

const T = DOMAIN_EVENT_TYPES.discussions;

const event = (type: string, data: Record<string, unknown>): EventEnvelope => ({
  id: '5f0d3e0e-8d4c-4f63-9a55-3b1f8d6c2e10',
  type,
  version: 1,
  occurredAt: '2026-01-02T03:06:05.000Z',
  producer: 'discussions',
  correlationId: null,
  actor: { id: 2, username: 'user2', name: 'User 2' },
  projectId: 42,
  groupId: null,
  data,
});

const project = payloadProject(42, null);
const input = (e: EventEnvelope, source: ReturnType<typeof fakeDiscussions>) => ({
  event: e,
  project,
  externalUrl: 'http://gl.test',
  source,
});
const updatedAt = { previous: '2026-01-02T03:04:05.000Z', current: '2026-01-02T03:06:05.000Z' };

describe('Hook payloads of updates, note edits and note deletions', () => {
  it("When an issue's fields change, then an `update` Issue Hook carries GitLab's `changes`", async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7, { title: 'New', assignees: [testUser(4)] }));
    const updated = event(T.issueUpdated, {
      targetId: 42007,
      targetIid: 7,
      targetTitle: 'New',
      changes: {
        title: { previous: 'Old', current: 'New' },
        description: { previous: 'Was', current: 'Something is broken' },
        labels: { previous: ['API'], current: ['bug'] },
        assigneeIds: { previous: [9], current: [4] },
        dueDate: { previous: null, current: '2030-01-31' },
        updatedById: { previous: null, current: 2 },
      },
      updatedAt,
    });
    expect(scopeOf(updated)).toBe(SCOPES.issue);
    const payload = (await buildPayload(input(updated, source), SCOPES.issue))!;
    expect(payload).toMatchObject({ object_kind: 'issue', object_attributes: { iid: 7, action: 'update' } });
    const changes = payload.changes as Record<string, { previous: unknown; current: unknown }>;
    expect(changes).toEqual({
      updated_by_id: { previous: null, current: 2 },
      updated_at: updatedAt,
      title: { previous: 'Old', current: 'New' },
      description: { previous: 'Was', current: 'Something is broken' },
      due_date: { previous: null, current: '2030-01-31' },
      labels: {
        previous: [expect.objectContaining({ id: null, title: 'API', type: 'ProjectLabel', project_id: 42 })],
        current: [expect.objectContaining({ id: 3, title: 'bug', color: '#ff0000', description: 'A bug' })],
      },
      assignees: {
        previous: [{ id: 9, name: '', username: '', avatar_url: null, email: '[REDACTED]' }],
        current: [expect.objectContaining({ id: 4, username: 'user4', email: '[REDACTED]' })],
      },
    });
    // GitLab's documented example: `updated_by_id` first, then `updated_at`, each {previous, current}.
    expect(Object.keys(changes).slice(0, 2)).toEqual(Object.keys(issueFixture.changes).slice(0, 2));
    expect(Object.keys(changes.updated_by_id!).sort()).toEqual(
      Object.keys(issueFixture.changes.updated_by_id).sort(),
    );
    // Label#hook_attrs: the keys of GitLab's documented `changes.labels` example.
    const documented = issueFixture.changes.labels.previous[0]!;
    expect(Object.keys((changes.labels!.previous as object[])[0]!).sort()).toEqual(
      Object.keys(documented).sort(),
    );
  });

  it('When the description changed after the event, then the event’s excerpt is sent, not the newer text', async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7, { description: 'Edited again' }));
    const updated = event(T.issueUpdated, {
      targetId: 42007,
      targetIid: 7,
      targetTitle: 'Issue 7',
      changes: { description: { previous: null, current: 'First text' } },
      updatedAt,
    });
    const payload = (await buildPayload(input(updated, source), SCOPES.issue))!;
    expect(payload.changes).toMatchObject({ description: { previous: null, current: 'First text' } });
  });

  it('When a confidential issue is updated, then it goes to confidential issue hooks only', () => {
    const updated = event(T.issueUpdated, {
      targetId: 42008,
      targetIid: 8,
      targetTitle: 'Issue 8',
      audience: { confidential: true },
      changes: { confidential: { previous: false, current: true } },
      updatedAt,
    });
    expect(scopeOf(updated)).toBe(SCOPES.confidentialIssue);
  });

  it('When a merge request is updated, then an `update` Merge Request Hook carries its reviewers change', async () => {
    const source = fakeDiscussions();
    source.mergeRequests.set('42:3', testMergeRequest(42, 3));
    const updated = event(T.mergeRequestUpdated, {
      targetId: 42503,
      targetIid: 3,
      targetTitle: 'MR 3',
      changes: { reviewerIds: { previous: [], current: [5] }, milestoneId: { previous: 1, current: null } },
      updatedAt,
    });
    expect(scopeOf(updated)).toBe(SCOPES.mergeRequest);
    const payload = (await buildPayload(input(updated, source), SCOPES.mergeRequest))!;
    expect(payload).toMatchObject({
      object_kind: 'merge_request',
      object_attributes: { iid: 3, action: 'update' },
      changes: {
        updated_at: updatedAt,
        milestone_id: { previous: 1, current: null },
        reviewers: { previous: [], current: [expect.objectContaining({ id: 5 })] },
      },
    });
  });

  const noteData = {
    ...testNoteCreatedData({ body: 'Edited body' }),
    authorId: 2,
    updatedAt: '2026-01-02T03:06:05.000Z',
  };

  it('When a comment is edited, then a Note Hook with action `update` shows the note as it is now', async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7));
    source.notes.set('42:99', testNote(42, 7, 99, { body: 'Edited body, whole' }));
    const edited = event(T.noteUpdated, noteData);
    expect(scopeOf(edited)).toBe(SCOPES.note);
    const payload = await buildPayload(input(edited, source), SCOPES.note);
    expect(payload).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      object_attributes: {
        id: 99,
        note: 'Edited body, whole',
        action: 'update',
        discussion_id: 'a'.repeat(40),
        // Note#updated_by_id: the editor, the event's actor.
        updated_by_id: 2,
      },
      issue: { iid: 7 },
    });
  });

  it('When an edited comment is deleted before its edit is delivered, then the edit is shown from its event', async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7));
    const payload = await buildPayload(input(event(T.noteUpdated, noteData), source), SCOPES.note);
    expect(payload).toMatchObject({ object_attributes: { id: 99, note: 'Edited body', action: 'update' } });
  });

  it('When a comment is deleted before its creation is delivered, then the creation is shown from its event', async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7));
    const { authorId: _author, updatedAt: _updated, ...created } = noteData;
    const payload = await buildPayload(input(event(T.noteCreated, created), source), SCOPES.note);
    expect(payload).toMatchObject({
      user: { id: 2 },
      object_attributes: {
        id: 99,
        note: 'Edited body',
        author_id: 2,
        created_at: noteData.createdAt,
        updated_at: noteData.createdAt,
        action: 'create',
      },
      issue: { iid: 7 },
    });
  });

  it('When a comment is deleted, then a Note Hook with action `delete` shows it from its event', async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7));
    const deleted = event(T.noteDeleted, noteData);
    const payload = await buildPayload(input(deleted, source), SCOPES.note);
    expect(payload).toMatchObject({
      object_kind: 'note',
      user: { id: 2, username: 'user2' },
      object_attributes: {
        id: 99,
        note: 'Edited body',
        author_id: 2,
        created_at: noteData.createdAt,
        updated_at: noteData.updatedAt,
        noteable_type: 'Issue',
        url: 'http://localhost/group/project-42/-/issues/7#note_99',
        action: 'delete',
      },
      issue: { iid: 7 },
    });
    source.issues.clear(); // the issue went with it: nothing to send
    expect(await buildPayload(input(deleted, source), SCOPES.note)).toBeNull();
  });

  it('When an internal note is edited or deleted, then it goes to confidential note hooks only', async () => {
    const source = fakeDiscussions();
    source.issues.set('42:7', testIssue(42, 7));
    for (const type of [T.noteUpdated, T.noteDeleted]) {
      const internal = event(type, { ...noteData, audience: { internal: true } });
      expect(scopeOf(internal)).toBe(SCOPES.confidentialNote);
    }
    const deleted = event(T.noteDeleted, { ...noteData, audience: { internal: true } });
    expect(await buildPayload(input(deleted, source), SCOPES.confidentialNote)).toMatchObject({
      event_type: 'confidential_note',
      object_attributes: { internal: true, action: 'delete' },
    });
  });
});
