import { DOMAIN_EVENT_TYPES, EVENT_TYPES, type EventEnvelope } from '@gl/contracts';
import { createTestRuntime, eventually, projectEventFields, type TestRuntime } from '@gl/testing';
import { createHooksModels, type HookDoc, type HooksModels } from '../hooks.models';
import type { HooksConfig } from '../app';
import {
  fakeDiscussions,
  testIssue,
  testNote,
  type FakeDiscussions,
} from '../payloads/fake-discussions.test-helpers';
import { createDelivery, type Delivery } from './index';
import { presentWebHookLog } from './log.presenter';
import { discussionsEvent, insertHook } from './delivery.test-helpers';
import { createSampleStore } from './samples.store';
import { iidOf, startReceiver, type Receiver } from '../testing/receiver';

const T = DOMAIN_EVENT_TYPES.discussions;
const A = DOMAIN_EVENT_TYPES.alerts;

let runtime: TestRuntime<HooksConfig>;
let hookModels: HooksModels;
let receiver: Receiver;
let source: FakeDiscussions;
let delivery: Delivery;
let nextId = 900_000 + Math.floor(Math.random() * 1000) * 100;

beforeAll(async () => {
  runtime = await createTestRuntime<HooksConfig>('hooks-delivery', {
    HOOKS_RETRY_BASE_MS: 20,
    HOOKS_RETRY_MAX_MS: 40,
    GITLAB_EXTERNAL_URL: 'http://gl.test',
  });
  hookModels = createHooksModels(runtime.connection);
  receiver = await startReceiver();
  source = fakeDiscussions();
  delivery = createDelivery({ runtime, hooks: hookModels.hooks, allowLocalRequests: true, source });
  await delivery.models.deliveries.createIndexes();
});

afterAll(async () => {
  await receiver.close();
  await runtime.close();
});

beforeEach(() => receiver.reset());

const addHook = (fields: Partial<HookDoc> & Pick<HookDoc, 'parentKind' | 'parentId'>): Promise<HookDoc> =>
  insertHook(hookModels, { _id: nextId++, url: `${receiver.url}/hook`, ...fields });

/** An issue event, with the issue discussions would answer for it. */
function issueEvent(type: string, projectId: number, iid: number, confidential = false): EventEnvelope {
  source.issues.set(`${projectId}:${iid}`, testIssue(projectId, iid, { confidential }));
  return discussionsEvent(type, projectId, {
    targetId: projectId * 1000 + iid,
    targetIid: iid,
    targetTitle: `Issue ${iid}`,
    ...(confidential ? { audience: { confidential: true } } : {}),
  });
}

const consume = (event: EventEnvelope) => delivery.subscription.handle(event);

/** Runs sender passes until nothing of the hook is queued any more. */
async function drain(hookId: number, sender = delivery.sender): Promise<void> {
  const left = await eventually(
    async () => {
      await sender.runOnce();
      return (await delivery.store.ofHook(hookId)).filter((d) => d.status === 'queued').length;
    },
    (count) => count === 0,
    20_000,
    10,
  );
  expect(left).toBe(0);
}

describe('Hook delivery', () => {
  it('When an issue is opened, then its project hook receives GitLab’s Issue Hook request, and it is logged', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      url: `${receiver.url}/hook/{tail}`,
      urlVariables: [{ key: 'tail', value: 'issues' }],
      token: 's3cret',
      customHeaders: [{ key: 'X-Custom', value: 'yes' }],
      events: { issues_events: true },
    });
    const opened = issueEvent(T.issueOpened, projectId, 1);
    await consume(opened);
    await drain(hook._id);

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.path).toBe('/hook/issues');
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-gitlab-event': 'Issue Hook',
      'x-gitlab-token': 's3cret',
      'x-gitlab-instance': 'http://gl.test',
      'x-gitlab-event-uuid': opened.id,
      'x-custom': 'yes',
    });
    expect(request!.headers['user-agent']).toMatch(/^GitLab\/\d+/);
    expect(request!.headers['x-gitlab-webhook-uuid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request!.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      object_attributes: { iid: 1, action: 'open', state: 'opened' },
      user: { id: 2, username: 'user2' },
    });

    const [logged] = await delivery.store.ofHook(hook._id);
    expect(logged).toMatchObject({
      status: 'delivered',
      attempts: 1,
      trigger: 'issue_hooks',
      eventName: 'Issue Hook',
      url: `${receiver.url}/hook/issues`,
      last: { responseStatus: '200', responseBody: 'ok', error: null },
    });
    expect(request!.headers['idempotency-key']).toBe(logged!.idempotencyKey);
    expect(logged!.requestHeaders['X-Gitlab-Token']).toBe('[REDACTED]');
    expect(logged!.last!.responseHeaders['x-receiver']).toBe('test');
  });

  it('When an issue is commented, then note hooks receive a Note Hook with the issue', async () => {
    const projectId = nextId++;
    const hook = await addHook({ parentKind: 'project', parentId: projectId, events: { note_events: true } });
    const other = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    source.issues.set(`${projectId}:3`, testIssue(projectId, 3));
    source.notes.set(`${projectId}:77`, testNote(projectId, 3, 77));
    await consume(
      discussionsEvent(T.noteCreated, projectId, {
        noteId: 77,
        noteType: null,
        discussionId: 'b'.repeat(40),
        body: 'Hello world',
        system: false,
        createdAt: new Date().toISOString(),
        noteableType: 'Issue',
        noteableId: projectId * 1000 + 3,
        noteableIid: 3,
        commitId: null,
        targetTitle: 'Issue 3',
      }),
    );
    await drain(hook._id);
    expect(receiver.received.map((r) => r.headers['x-gitlab-event'])).toEqual(['Note Hook']);
    expect(receiver.received[0]!.body).toMatchObject({
      object_kind: 'note',
      object_attributes: { id: 77, note: 'Hello world', noteable_type: 'Issue' },
      issue: { iid: 3 },
    });
    expect(await delivery.store.ofHook(other._id)).toEqual([]);
  });

  it('When a confidential issue is opened, then only hooks with confidential issue events get it, group hooks included', async () => {
    const groupId = nextId++;
    const projectId = nextId++;
    await consume({
      ...discussionsEvent(EVENT_TYPES.identity.projectCreated, projectId, {}),
      producer: 'gateway',
      data: projectEventFields(projectId, { ancestorGroupIds: [groupId] }),
    });
    const plain = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    const secret = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { confidential_issues_events: true },
    });
    const groupHook = await addHook({
      parentKind: 'group',
      parentId: groupId,
      events: { issues_events: true, confidential_issues_events: true },
    });
    await consume(issueEvent(T.issueOpened, projectId, 5, true));
    expect(await delivery.store.ofHook(plain._id)).toEqual([]);
    await drain(secret._id);
    await drain(groupHook._id);
    expect(receiver.received.map((r) => r.headers['x-gitlab-event'])).toEqual([
      'Confidential Issue Hook',
      'Confidential Issue Hook',
    ]);
    expect(receiver.received[0]!.body).toMatchObject({ event_type: 'confidential_issue' });
  });

  it('When the receiver answers 500 and then 200, then the delivery is sent again with the same Idempotency-Key, in order', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    let failures = 1;
    receiver.answer = (req) => {
      if (iidOf(req) === 1 && failures > 0) {
        failures -= 1;
        return { status: 500 };
      }
      return { status: 200 };
    };
    await consume(issueEvent(T.issueOpened, projectId, 1));
    await consume(issueEvent(T.issueOpened, projectId, 2));
    await drain(hook._id);

    const sent = receiver.received.map((r) => ({
      iid: iidOf(r),
      key: r.headers['idempotency-key'],
    }));
    expect(sent.map((s) => s.iid)).toEqual([1, 1, 2]);
    expect(sent[0]!.key).toBe(sent[1]!.key);
    expect(sent[2]!.key).not.toBe(sent[0]!.key);
    const [first, second] = await delivery.store.ofHook(hook._id);
    expect(first).toMatchObject({ status: 'delivered', attempts: 2, last: { responseStatus: '200' } });
    expect(second).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('When an alert is recorded and resolved, then alert_events hooks (a group’s too) get Alert Hooks, others nothing', async () => {
    const groupId = nextId++;
    const projectId = nextId++;
    await consume({
      ...discussionsEvent(EVENT_TYPES.identity.projectCreated, projectId, {}),
      producer: 'gateway',
      data: projectEventFields(projectId, { ancestorGroupIds: [groupId], fullPath: 'ops/web' }),
    });
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      url: `${receiver.url}/project-alerts`,
      token: 'alert-token',
      events: { alert_events: true },
    });
    const issuesOnly = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true, note_events: true },
    });
    const groupHook = await addHook({
      parentKind: 'group',
      parentId: groupId,
      url: `${receiver.url}/group-alerts`,
      events: { alert_events: true },
    });
    const state = {
      title: 'Disk full',
      severity: 'critical',
      status: 'triggered',
      startedAt: '2026-11-28T09:00:00.000Z',
      endedAt: null,
      events: 1,
      service: 'db',
      monitoringTool: 'Prometheus',
      hosts: ['db-1'],
      environmentName: null,
    };
    const alert = (type: string, data: Record<string, unknown>) => ({
      ...discussionsEvent(type, projectId, { alertId: '77', alertIid: 4, ...data }),
      producer: 'alerts',
      actor: null,
    });
    const created = alert(A.alertCreated, {
      title: 'Disk full',
      description: null,
      severity: 'critical',
      createIncident: false,
      state,
    });
    await consume(created);
    const endedAt = '2026-11-28T09:30:00.000Z';
    await consume(alert(A.alertResolved, { state: { ...state, status: 'resolved', endedAt } }));
    await drain(hook._id);
    await drain(groupHook._id);

    expect(await delivery.store.ofHook(issuesOnly._id)).toEqual([]);
    const toProject = receiver.received.filter((r) => r.path === '/project-alerts');
    const toGroup = receiver.received.filter((r) => r.path === '/group-alerts');
    expect(toGroup.map((r) => (r.body.object_attributes as { action: string }).action)).toEqual([
      'create',
      'resolve',
    ]);
    expect(toProject).toHaveLength(2);
    expect(toProject[0]!.headers).toMatchObject({
      'x-gitlab-event': 'Alert Hook',
      'x-gitlab-token': 'alert-token',
      'x-gitlab-event-uuid': created.id,
    });
    expect(Object.keys(toProject[0]!.body)).toEqual([
      'object_kind',
      'event_type',
      'project',
      'object_attributes',
    ]);
    expect(toProject[0]!.body).toMatchObject({
      object_kind: 'alert',
      event_type: 'alert',
      project: { id: projectId, path_with_namespace: 'ops/web' },
    });
    expect(toProject[0]!.body.object_attributes).toEqual({
      iid: 4,
      title: 'Disk full',
      url: 'http://gl.test/ops/web/-/alert_management/4/details',
      severity: 'critical',
      events: 1,
      status: 'triggered',
      started_at: '2026-11-28T09:00:00.000Z',
      ended_at: null,
      monitoring_tool: 'Prometheus',
      service: 'db',
      hosts: ['db-1'],
      environment: null,
      action: 'create',
    });
    expect(toProject[1]!.body.object_attributes).toMatchObject({
      status: 'resolved',
      ended_at: endedAt,
      action: 'resolve',
    });
    const [logged] = await delivery.store.ofHook(hook._id);
    expect(logged).toMatchObject({ trigger: 'alert_hooks', eventName: 'Alert Hook', status: 'delivered' });
  });

  it('When an event is delivered again by the bus, then nothing more is queued', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    const opened = issueEvent(T.issueOpened, projectId, 1);
    await consume(opened);
    await consume(opened);
    await drain(hook._id);
    await consume(opened);
    expect(await delivery.store.ofHook(hook._id)).toHaveLength(1);
    expect(receiver.received).toHaveLength(1);
  });

  it('When an event happened before the hook was added, then it is not delivered to it', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    const old = issueEvent(T.issueOpened, projectId, 1);
    await consume({ ...old, occurredAt: new Date(Date.now() - 3_600_000).toISOString() });
    expect(await delivery.store.ofHook(hook._id)).toEqual([]);
  });

  it('When a logged delivery is resent, then the same payload goes again with the same Idempotency-Key', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    await consume(issueEvent(T.issueClosed, projectId, 4));
    await drain(hook._id);
    const [original] = await delivery.store.ofHook(hook._id);
    const again = await delivery.store.resend(hook._id, original!._id);
    expect(again).toMatchObject({ idempotencyKey: original!.idempotencyKey, status: 'queued' });
    expect(await delivery.store.resend(hook._id + 1, original!._id)).toBeNull();
    await drain(hook._id);
    expect(receiver.received.map((r) => r.headers['idempotency-key'])).toEqual([
      original!.idempotencyKey,
      original!.idempotencyKey,
    ]);
    expect(receiver.received[1]!.body).toEqual(receiver.received[0]!.body);
    const log = presentWebHookLog((await delivery.store.ofHook(hook._id))[1]!);
    expect(log).toMatchObject({
      trigger: 'issue_hooks',
      response_status: '200',
      response_body: 'ok',
      request_data: { object_kind: 'issue', object_attributes: { action: 'close' } },
      request_headers: { 'X-Gitlab-Event': 'Issue Hook' },
    });
    expect(typeof log.execution_duration).toBe('number');
  });

  it('When retries run out, then the delivery is failed with its reason and kept', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    receiver.answer = () => ({ status: 500 });
    await consume(issueEvent(T.issueOpened, projectId, 1));
    // Retries stop once giveUpAt has passed: set it to now, as a day later would find it.
    await delivery.models.deliveries.updateMany({ hookId: hook._id }, { $set: { giveUpAt: new Date() } });
    await drain(hook._id);
    const [failed] = await delivery.store.ofHook(hook._id);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, reason: 'HTTP 500' });
  });

  it('When a hook names a local address and local requests are not allowed, then nothing is sent and the reason is kept', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      events: { issues_events: true },
    });
    const strict = createDelivery({ runtime, hooks: hookModels.hooks, allowLocalRequests: false, source });
    await consume(issueEvent(T.issueOpened, projectId, 1));
    await delivery.models.deliveries.updateMany({ hookId: hook._id }, { $set: { giveUpAt: new Date() } });
    await drain(hook._id, strict.sender);
    expect(receiver.received).toEqual([]);
    const [blocked] = await delivery.store.ofHook(hook._id);
    expect(blocked).toMatchObject({ status: 'failed', last: { responseStatus: 'internal error' } });
    expect(blocked!.reason).toMatch(/^URL is blocked: /);
  });

  it('When a group hook’s test looks for a project, then it takes the first below the group with the record, across batches', async () => {
    const samples = createSampleStore(delivery.models);
    const groupId = nextId++;
    const first = nextId;
    nextId += 205;
    await delivery.models.projects.insertMany(
      Array.from({ length: 205 }, (_, i) => ({
        _id: first + i,
        name: `p${i}`,
        path: `p${i}`,
        fullPath: `g/sub/p${i}`,
        namespaceId: groupId + 1,
        ancestorGroupIds: [groupId, groupId + 1],
        visibility: 'private',
        occurredAt: new Date().toISOString(),
      })),
    );
    expect(await samples.belowGroup(groupId, 'issue')).toEqual({ projectId: first, event: null });
    expect(await samples.belowGroup(groupId + 1, 'note')).toEqual({ projectId: first, event: null });
    expect(await samples.belowGroup(nextId++, 'issue')).toBeNull();
    const late = issueEvent(T.issueOpened, first + 203, 1);
    const later = issueEvent(T.issueOpened, first + 204, 1);
    await samples.recordMany([later]);
    await samples.recordMany([late]);
    expect(await samples.belowGroup(groupId, 'issue')).toEqual({ projectId: first + 203, event: late });
    expect(await samples.belowGroup(groupId, 'mergeRequest')).toEqual({ projectId: first, event: null });
  });

  it('When two senders run at once, then one hook’s queue is never sent concurrently, and stays in order', async () => {
    const projectId = nextId++;
    const hook = await addHook({
      parentKind: 'project',
      parentId: projectId,
      url: `${receiver.url}/hook/two-senders`,
      events: { issues_events: true },
    });
    for (let iid = 1; iid <= 5; iid++) await consume(issueEvent(T.issueOpened, projectId, iid));
    receiver.answer = () => ({ status: 200, delayMs: 30 });
    const second = createDelivery({ runtime, hooks: hookModels.hooks, allowLocalRequests: true, source });
    await Promise.all([drain(hook._id), drain(hook._id, second.sender)]);
    expect(receiver.maxInFlightOf('/hook/two-senders')).toBe(1);
    const ours = receiver.received.filter((r) => r.path === '/hook/two-senders');
    expect(ours.map(iidOf)).toEqual([1, 2, 3, 4, 5]);
  });
});
