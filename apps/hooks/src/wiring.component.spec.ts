import { randomUUID } from 'node:crypto';
import { DOMAIN_EVENT_TYPES, EVENT_TYPES } from '@gl/contracts';
import { DEVELOPER, MAINTAINER, OWNER, eventually, projectEventFields, useHarness } from '@gl/testing';
import { fakeDiscussions, testIssue } from './payloads/fake-discussions.test-helpers';
import { groupNamespace, projectNamespace, startHooksHarness } from './testing/hooks.harness';
import { startReceiver, type Receiver } from './testing/receiver';
import { discussionsEvent } from './delivery/delivery.test-helpers';

describe('Hook delivery in the hooks service', () => {
  const source = fakeDiscussions();
  const h = useHarness(() =>
    startHooksHarness(
      {
        ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES: true,
        HOOKS_SENDER_POLL_MS: 50,
        GITLAB_EXTERNAL_URL: 'http://gl.test',
      },
      source,
    ),
  );
  let receiver: Receiver;
  let received: Receiver['received'];
  let port = 0;

  beforeAll(async () => {
    receiver = await startReceiver();
    ({ received, port } = receiver);
  });

  afterAll(() => receiver.close());

  it('When a hook added through the API names a host, then the started sender posts the issue to the address it checked, the log lists it and a resend repeats its Idempotency-Key', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/hooks`, {
      ns,
      as: MAINTAINER,
      json: { url: `http://loop.example.com:${port}/receive`, token: 'tok', issues_events: true },
    });
    expect(created.status).toBe(201);
    source.issues.set(`${ns.id}:1`, testIssue(ns.id, 1));
    const subscription = h.instance.subscriptions!.find((s) => s.durable === 'hooks-delivery')!;
    h.instance.start!();
    try {
      await subscription.handle(
        discussionsEvent(DOMAIN_EVENT_TYPES.discussions.issueOpened, ns.id, {
          targetId: ns.id * 1000 + 1,
          targetIid: 1,
          targetTitle: 'Issue 1',
        }),
      );
      const got = await eventually(
        async () => received,
        (list) => list.length > 0,
      );
      expect(got).toHaveLength(1);
      expect(got[0]!.headers.host).toBe(`loop.example.com:${port}`);
      expect(got[0]!.headers).toMatchObject({ 'x-gitlab-event': 'Issue Hook', 'x-gitlab-token': 'tok' });
      expect(got[0]!.body).toMatchObject({
        object_kind: 'issue',
        object_attributes: { iid: 1, action: 'open' },
      });

      // lib/api/hooks/events.rb: the log, newest first, the token masked; Maintainer and up.
      const events = `/projects/${ns.id}/hooks/${(created.body as { id: number }).id}/events`;
      const log = await eventually(
        () => h.call('GET', events, { ns, as: MAINTAINER }),
        (reply) => (reply.body as { response_status: string | null }[])[0]?.response_status === '200',
      );
      expect(log.status).toBe(200);
      expect(log.headers.get('x-per-page')).toBe('20');
      const [entry] = log.body as Record<string, unknown>[];
      expect(entry).toMatchObject({
        trigger: 'issue_hooks',
        status: 'delivered',
        request_headers: { 'X-Gitlab-Event': 'Issue Hook', 'X-Gitlab-Token': '[REDACTED]' },
        request_data: { object_kind: 'issue' },
      });
      expect(entry!.idempotency_key).toBe(got[0]!.headers['idempotency-key']);
      expect((await h.call('GET', events, { ns, as: DEVELOPER })).status).toBe(403);
      expect((await h.call('GET', events, { ns, as: MAINTAINER, query: { per_page: '21' } })).body).toEqual({
        error: 'per_page does not have a valid value',
      });
      expect(
        (await h.call('GET', events, { ns, as: MAINTAINER, query: { status: 'client_failure' } })).body,
      ).toEqual([]);

      // lib/api/hooks/resend_hook.rb: the same payload and Idempotency-Key again, 201 with the answer's code.
      const resent = await h.call('POST', `${events}/${entry!.id as number}/resend`, { ns, as: MAINTAINER });
      expect(resent.status).toBe(201);
      expect(resent.body).toEqual({ response_status: 200 });
      expect(received).toHaveLength(2);
      expect(received[1]!.headers['idempotency-key']).toBe(got[0]!.headers['idempotency-key']);
      expect(received[1]!.body).toEqual(received[0]!.body);
      const missing = await h.call('POST', `${events}/999999999/resend`, { ns, as: MAINTAINER });
      expect(missing.status).toBe(404);
    } finally {
      await h.instance.stop!();
    }
  });
  it('When a hook is tested, then the newest issue goes to it with the caller as user, or 422 says what is missing', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/hooks`, {
      ns,
      as: MAINTAINER,
      json: { url: `http://loop.example.com:${port}/test`, push_events: false },
    });
    const test = (trigger: string, as = MAINTAINER) =>
      h.call('POST', `/projects/${ns.id}/hooks/${(created.body as { id: number }).id}/test/${trigger}`, {
        ns,
        as,
      });
    // TestHooks::ProjectService's messages (Integrations::ProjectTestData), 422 from lib/api/hooks/trigger_test.rb.
    expect(await test('issues_events')).toMatchObject({
      status: 422,
      body: { message: 'Ensure the project has issues.' },
    });
    expect((await test('note_events')).body).toEqual({ message: 'Ensure the project has notes.' });
    expect((await test('merge_requests_events')).body).toEqual({
      message: 'Ensure the project has merge requests.',
    });
    expect(await test('confidential_note_events')).toMatchObject({
      status: 422,
      body: { message: 'Testing not available for this hook' },
    });
    expect(await test('bogus_events')).toMatchObject({
      status: 400,
      body: { error: 'trigger does not have a valid value' },
    });
    expect((await test('issues_events', DEVELOPER)).status).toBe(403);

    source.issues.set(`${ns.id}:5`, testIssue(ns.id, 5));
    const subscription = h.instance.subscriptions!.find((s) => s.durable === 'hooks-delivery')!;
    await subscription.handle(
      discussionsEvent(DOMAIN_EVENT_TYPES.discussions.issueOpened, ns.id, {
        targetId: ns.id * 1000 + 5,
        targetIid: 5,
        targetTitle: 'Issue 5',
      }),
    );
    const before = received.length;
    expect(await test('issues_events')).toMatchObject({ status: 201, body: { message: '201 Created' } });
    const sent = received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(sent[0]!.body).toMatchObject({
      object_kind: 'issue',
      user: { id: MAINTAINER.id, username: MAINTAINER.username },
      object_attributes: { iid: 5 },
    });
    const log = await h.call(
      'GET',
      `/projects/${ns.id}/hooks/${(created.body as { id: number }).id}/events`,
      {
        ns,
        as: MAINTAINER,
      },
    );
    expect(log.body).toMatchObject([{ trigger: 'issue_hooks', status: 'delivered', response_status: '200' }]);
  });

  it('When a hook is tested with alert_events (beyond GitLab), then the newest alert goes as an Alert Hook, or 422', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', `/projects/${ns.id}/hooks`, {
      ns,
      as: MAINTAINER,
      json: { url: `http://loop.example.com:${port}/alert-test`, alert_events: true },
    });
    const test = () =>
      h.call('POST', `/projects/${ns.id}/hooks/${(created.body as { id: number }).id}/test/alert_events`, {
        ns,
        as: MAINTAINER,
      });
    expect(await test()).toMatchObject({ status: 422, body: { message: 'Ensure the project has alerts.' } });
    const subscription = h.instance.subscriptions!.find((s) => s.durable === 'hooks-delivery')!;
    await subscription.handle({
      id: randomUUID(),
      type: DOMAIN_EVENT_TYPES.alerts.alertCreated,
      version: 1,
      occurredAt: new Date().toISOString(),
      producer: 'alerts',
      correlationId: null,
      actor: null,
      projectId: ns.id,
      groupId: null,
      data: {
        alertId: '12',
        alertIid: 2,
        title: 'Latency',
        description: null,
        severity: 'medium',
        createIncident: false,
      },
    });
    // The hook got the alert itself from the bus (no sender is started here): only the test is sent.
    const before = received.length;
    expect(await test()).toMatchObject({ status: 201, body: { message: '201 Created' } });
    const sent = received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-gitlab-event']).toBe('Alert Hook');
    expect(sent[0]!.body).toMatchObject({
      object_kind: 'alert',
      event_type: 'alert',
      object_attributes: { iid: 2, title: 'Latency', severity: 'medium', action: 'create' },
    });
  });

  it('When a group hook is tested, then a project below the group has its newest issue sent, or 422 says what is missing', async () => {
    const group = groupNamespace();
    const created = await h.call('POST', `/groups/${group.id}/hooks`, {
      ns: group,
      as: OWNER,
      tier: 'premium',
      json: { url: `http://loop.example.com:${port}/group-test`, push_events: false },
    });
    expect(created.status).toBe(201);
    const hookId = (created.body as { id: number }).id;
    const test = (trigger: string, as = OWNER, tier: 'free' | 'premium' = 'premium') =>
      h.call('POST', `/groups/${group.id}/hooks/${hookId}/test/${trigger}`, { ns: group, as, tier });
    const subscription = h.instance.subscriptions!.find((s) => s.durable === 'hooks-delivery')!;
    const event = discussionsEvent;

    // ee/app/services/test_hooks/group_service.rb: no project below the group, whatever the trigger.
    expect(await test('issues_events')).toMatchObject({
      status: 422,
      body: { message: 'Ensure the group has a project with commits.' },
    });
    expect((await test('push_events')).body).toEqual({
      message: 'Ensure the group has a project with commits.',
    });
    // Grape: 401/403 before the parameters' 400 and the hook's 404; ProjectHook.triggers' values only.
    expect((await test('issues_events', MAINTAINER)).status).toBe(403);
    expect((await test('issues_events', OWNER, 'free')).status).toBe(403);
    expect(await test('subgroup_events')).toMatchObject({
      status: 400,
      body: { error: 'trigger does not have a valid value' },
    });
    const missingHook = await h.call('POST', `/groups/${group.id}/hooks/999999999/test/issues_events`, {
      ns: group,
      as: OWNER,
      tier: 'premium',
    });
    expect(missingHook.status).toBe(404);

    // Two projects in a subgroup of the group: the first has no issue, so the second's is sent.
    const [first, second] = [projectNamespace(), projectNamespace()];
    for (const project of [first, second]) {
      await subscription.handle({
        ...event(EVENT_TYPES.identity.projectCreated, project.id, {}),
        producer: 'gateway',
        data: projectEventFields(project.id, { ancestorGroupIds: [group.id, group.id + 50_000] }),
      });
    }
    expect(await test('issues_events')).toMatchObject({
      status: 422,
      body: { message: 'Ensure the project has issues.' },
    });
    expect((await test('resource_deploy_token_events')).body).toEqual({
      message: 'Testing not available for this hook',
    });

    source.issues.set(`${second.id}:3`, testIssue(second.id, 3));
    await subscription.handle(
      event(DOMAIN_EVENT_TYPES.discussions.issueOpened, second.id, {
        targetId: second.id * 1000 + 3,
        targetIid: 3,
        targetTitle: 'Issue 3',
      }),
    );
    const before = received.length;
    expect(await test('issues_events')).toMatchObject({ status: 201, body: { message: '201 Created' } });
    const sent = received.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(sent[0]!.body).toMatchObject({
      object_kind: 'issue',
      user: { id: OWNER.id, username: OWNER.username },
      project: { id: second.id },
      object_attributes: { iid: 3 },
    });
    const log = await h.call('GET', `/groups/${group.id}/hooks/${hookId}/events`, {
      ns: group,
      as: OWNER,
      tier: 'premium',
    });
    expect(log.body).toMatchObject([{ trigger: 'issue_hooks', status: 'delivered', response_status: '200' }]);
  });
});
