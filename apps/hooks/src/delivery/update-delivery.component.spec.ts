import { DOMAIN_EVENT_TYPES } from '@gl/contracts';
import { createTestRuntime, type TestRuntime } from '@gl/testing';
import { createHooksModels, type HookDoc, type HooksModels } from '../hooks.models';
import type { HooksConfig } from '../app';
import {
  fakeDiscussions,
  testIssue,
  testNote,
  type FakeDiscussions,
} from '../payloads/fake-discussions.test-helpers';
import { createDelivery, type Delivery } from './index';
import { discussionsEvent, insertHook } from './delivery.test-helpers';

const T = DOMAIN_EVENT_TYPES.discussions;

let runtime: TestRuntime<HooksConfig>;
let hookModels: HooksModels;
let source: FakeDiscussions;
let delivery: Delivery;
let nextId = 800_000 + Math.floor(Math.random() * 1000) * 100;

beforeAll(async () => {
  runtime = await createTestRuntime<HooksConfig>('hooks-update-delivery', {
    GITLAB_EXTERNAL_URL: 'http://gl.test',
  });
  hookModels = createHooksModels(runtime.connection);
  source = fakeDiscussions();
  delivery = createDelivery({ runtime, hooks: hookModels.hooks, allowLocalRequests: true, source });
  await delivery.models.deliveries.createIndexes();
});

afterAll(async () => {
  await runtime.close();
});

const addHook = (projectId: number, events: Record<string, boolean>): Promise<HookDoc> =>
  insertHook(hookModels, {
    _id: nextId++,
    parentKind: 'project',
    parentId: projectId,
    url: 'http://127.0.0.1:9/hook',
    events,
    createdAt: new Date(Date.now() - 1000),
  });

/** What was queued for a hook: the log's trigger and event name, and the payload. */
async function queuedFor(hook: HookDoc) {
  return (await delivery.store.ofHook(hook._id)).map((d) => ({
    trigger: d.trigger,
    eventName: d.eventName,
    payload: JSON.parse(d.payload) as Record<string, unknown>,
  }));
}

const updatedAt = { previous: '2026-01-02T03:04:05.000Z', current: '2026-01-02T03:06:05.000Z' };

describe('Hook delivery of updates, note edits and note deletions', () => {
  it('When the delivery durable subscribes, then it takes the update, note edit and note deletion events', () => {
    expect(delivery.subscription.filterSubjects).toEqual(
      expect.arrayContaining([T.issueUpdated, T.mergeRequestUpdated, T.noteUpdated, T.noteDeleted]),
    );
  });

  it('When an issue is updated, then issue hooks get an `update` Issue Hook and confidential ones only a confidential issue’s', async () => {
    const projectId = nextId++;
    const issues = await addHook(projectId, { issues_events: true });
    const confidential = await addHook(projectId, { confidential_issues_events: true });
    source.issues.set(`${projectId}:1`, testIssue(projectId, 1, { title: 'New' }));
    source.issues.set(`${projectId}:2`, testIssue(projectId, 2, { confidential: true }));
    const update = (iid: number, extra: Record<string, unknown>) =>
      discussionsEvent(T.issueUpdated, projectId, {
        targetId: projectId * 1000 + iid,
        targetIid: iid,
        targetTitle: `Issue ${iid}`,
        updatedAt,
        ...extra,
      });
    await delivery.subscription.handle(
      update(1, { changes: { title: { previous: 'Old', current: 'New' } } }),
    );
    await delivery.subscription.handle(
      update(2, {
        audience: { confidential: true },
        changes: { confidential: { previous: false, current: true } },
      }),
    );
    expect(await queuedFor(issues)).toEqual([
      {
        trigger: 'issue_hooks',
        eventName: 'Issue Hook',
        payload: expect.objectContaining({
          object_attributes: expect.objectContaining({ iid: 1, action: 'update' }) as object,
          changes: { updated_at: updatedAt, title: { previous: 'Old', current: 'New' } },
        }) as object,
      },
    ]);
    expect(await queuedFor(confidential)).toEqual([
      {
        trigger: 'confidential_issue_hooks',
        eventName: 'Confidential Issue Hook',
        payload: expect.objectContaining({
          event_type: 'confidential_issue',
          changes: { updated_at: updatedAt, confidential: { previous: false, current: true } },
        }) as object,
      },
    ]);
  });

  it('When a comment is edited and deleted, then note hooks get `update` and `delete`; an internal one goes to confidential note hooks only', async () => {
    const projectId = nextId++;
    const notes = await addHook(projectId, { note_events: true });
    const internalNotes = await addHook(projectId, { confidential_note_events: true });
    source.issues.set(`${projectId}:3`, testIssue(projectId, 3));
    source.notes.set(`${projectId}:77`, testNote(projectId, 3, 77, { body: 'Edited' }));
    const noteEvent = (type: string, noteId: number, internal: boolean) =>
      discussionsEvent(type, projectId, {
        noteId,
        noteType: null,
        discussionId: 'c'.repeat(40),
        body: 'Edited',
        system: false,
        createdAt: '2026-01-02T03:05:05.000Z',
        noteableType: 'Issue',
        noteableId: projectId * 1000 + 3,
        noteableIid: 3,
        commitId: null,
        targetTitle: 'Issue 3',
        authorId: 2,
        updatedAt: '2026-01-02T03:06:05.000Z',
        audience: { internal },
      });
    await delivery.subscription.handle(noteEvent(T.noteUpdated, 77, false));
    await delivery.subscription.handle(noteEvent(T.noteDeleted, 77, false));
    await delivery.subscription.handle(noteEvent(T.noteDeleted, 78, true));
    const sent = await queuedFor(notes);
    expect(
      sent.map((d) => [d.eventName, (d.payload.object_attributes as { action: string }).action]),
    ).toEqual([
      ['Note Hook', 'update'],
      ['Note Hook', 'delete'],
    ]);
    const hidden = await queuedFor(internalNotes);
    expect(hidden).toEqual([
      {
        trigger: 'confidential_note_hooks',
        eventName: 'Confidential Note Hook',
        payload: expect.objectContaining({
          event_type: 'confidential_note',
          object_attributes: expect.objectContaining({ id: 78, internal: true, action: 'delete' }) as object,
        }) as object,
      },
    ]);
  });
});
