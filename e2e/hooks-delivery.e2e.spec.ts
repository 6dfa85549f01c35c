import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InfraHandle } from '@gl/infra';
import type { RunningStack } from '@gl/launcher';
import { z } from 'zod';
import { webHookLogEntity } from '@gl/contracts';
import { eventually, unique } from './e2e.helpers';
import { startOwnStack } from './own-stack';

/**
 * Webhook delivery end to end: a project hook added through the gateway receives the issue and the comment
 * made through the API, as GitLab sends them (WebHookService#build_headers, Gitlab::DataBuilder::Issuable
 * and ::Note), lists them in its log (lib/api/hooks/events.rb), resends one with the same Idempotency-Key
 * (lib/api/hooks/resend_hook.rb) and sends the newest comment on a test (lib/api/hooks/trigger_test.rb);
 * a group hook gets alerts with alert_events (beyond GitLab) and is tested (TestHooks::GroupService).
 * A stack of its own: the receiver is on loopback, which only
 * `ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES=true` lets a hook name, and the shared stack keeps
 * GitLab's default (off) for the URL blocker's tests.
 */
const ROOT_TOKEN = 'glpat-hooks-delivery-root-token-0000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Received {
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

describe('webhook delivery through the gateway', () => {
  let infra: InfraHandle;
  let stack: RunningStack;
  let receiver: Server;
  const received: Received[] = [];

  const call = async (method: string, path: string, json?: unknown) => {
    const response = await fetch(`${stack.gatewayUrl}/api/v4${path}`, {
      method,
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'content-type': 'application/json' },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const body: unknown = await response.json();
    return { status: response.status, body };
  };

  beforeAll(async () => {
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
        received.push({ headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    ({ infra, stack } = await startOwnStack('hookdelivery', ROOT_TOKEN, {
      extraEnv: { ALLOW_LOCAL_REQUESTS_FROM_WEB_HOOKS_AND_SERVICES: 'true', HOOKS_SENDER_POLL_MS: '200' },
    }));
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await infra?.stop();
    await new Promise<void>((done) => (receiver ? receiver.close(() => done()) : done()));
  });

  it('When an issue and a comment are made, then the hook gets both as GitLab sends them, logs them and resends one with its Idempotency-Key', async () => {
    const path = unique('hookdel');
    const group = (await call('POST', '/groups', { name: path, path, visibility: 'private' })).body as {
      id: number;
    };
    const project = (await call('POST', '/projects', { name: 'app', namespace_id: group.id })).body as {
      id: number;
      path_with_namespace: string;
    };
    const port = (receiver.address() as AddressInfo).port;
    const hook = await call('POST', `/projects/${project.id}/hooks`, {
      url: `http://127.0.0.1:${port}/hook`,
      token: 'e2e-secret',
      push_events: false,
      issues_events: true,
      note_events: true,
    });
    expect(hook.status).toBe(201);
    const hookId = (hook.body as { id: number }).id;

    const issue = await call('POST', `/projects/${project.id}/issues`, { title: 'Delivered issue' });
    expect(issue.status).toBe(201);
    const iid = (issue.body as { iid: number }).iid;
    const note = await call('POST', `/projects/${project.id}/issues/${iid}/notes`, {
      body: 'Delivered note',
    });
    expect(note.status).toBe(201);

    const both = await eventually(
      async () => [...received],
      (list) => list.length >= 2,
      30_000,
      100,
    );
    const byEvent = new Map(both.map((r) => [r.headers['x-gitlab-event'], r]));
    const issueHook = byEvent.get('Issue Hook')!;
    const noteHook = byEvent.get('Note Hook')!;
    expect([...byEvent.keys()].sort()).toEqual(['Issue Hook', 'Note Hook']);
    for (const { headers } of [issueHook, noteHook]) {
      expect(headers['content-type']).toBe('application/json');
      expect(headers['x-gitlab-token']).toBe('e2e-secret');
      expect(headers['x-gitlab-instance']).toBe(stack.gatewayUrl);
      expect(headers['user-agent']).toMatch(/^GitLab\/\d+\.\d+\.\d+/);
      expect(headers['x-gitlab-webhook-uuid']).toMatch(UUID);
      expect(headers['x-gitlab-event-uuid']).toMatch(UUID);
      expect(headers['idempotency-key']).toMatch(UUID);
    }
    expect(issueHook.headers['idempotency-key']).not.toBe(noteHook.headers['idempotency-key']);
    expect(issueHook.body).toMatchObject({
      object_kind: 'issue',
      event_type: 'issue',
      user: { username: 'root' },
      project: { id: project.id, path_with_namespace: project.path_with_namespace },
      object_attributes: { iid, title: 'Delivered issue', action: 'open', state: 'opened' },
      labels: [],
      repository: { name: 'app' },
    });
    // lib/gitlab/data_builder/issuable.rb sends `assignees` only when there are some.
    expect(issueHook.body).not.toHaveProperty('assignees');
    expect(noteHook.body).toMatchObject({
      object_kind: 'note',
      event_type: 'note',
      project_id: project.id,
      object_attributes: { note: 'Delivered note', noteable_type: 'Issue', action: 'create' },
      issue: { iid, title: 'Delivered issue' },
    });
    expect((noteHook.body.object_attributes as { url: string }).url).toMatch(
      new RegExp(`/${project.path_with_namespace}/-/issues/${iid}#note_\\d+$`),
    );

    // The log, newest first: what was sent (the token masked) and what came back.
    const events = `/projects/${project.id}/hooks/${hookId}/events`;
    const log = await eventually(
      async () => z.array(webHookLogEntity).parse((await call('GET', events)).body),
      (entries) => entries.length === 2 && entries.every((e) => e.response_status === '200'),
      10_000,
      100,
    );
    expect(log.map((e) => e.trigger)).toEqual(['note_hooks', 'issue_hooks']);
    expect(log[1]).toMatchObject({
      response_body: 'received',
      request_headers: { 'X-Gitlab-Event': 'Issue Hook', 'X-Gitlab-Token': '[REDACTED]' },
      request_data: { object_kind: 'issue' },
      idempotency_key: issueHook.headers['idempotency-key'],
    });

    const resent = await call('POST', `${events}/${log[1]!.id}/resend`);
    expect(resent).toEqual({ status: 201, body: { response_status: 200 } });
    expect(received).toHaveLength(3);
    expect(received[2]!.headers['idempotency-key']).toBe(issueHook.headers['idempotency-key']);
    expect(received[2]!.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(received[2]!.body).toEqual(issueHook.body);

    // lib/api/hooks/trigger_test.rb: the newest comment, sent at once with the caller as `user`.
    const tested = await call('POST', `/projects/${project.id}/hooks/${hookId}/test/note_events`);
    expect(tested).toEqual({ status: 201, body: { message: '201 Created' } });
    expect(received).toHaveLength(4);
    expect(received[3]!.headers['x-gitlab-event']).toBe('Note Hook');
    expect(received[3]!.body).toMatchObject({
      object_kind: 'note',
      user: { username: 'root' },
      object_attributes: { note: 'Delivered note' },
    });
    expect(received[3]!.headers['idempotency-key']).not.toBe(noteHook.headers['idempotency-key']);
  });

  it('When an alert is posted, acknowledged and resolved, then a group hook with alert_events gets three Alert Hooks, and group hook tests send a project’s records', async () => {
    const path = unique('hookalert');
    const group = (await call('POST', '/groups', { name: path, path, visibility: 'private' })).body as {
      id: number;
    };
    const project = (await call('POST', '/projects', { name: 'ops', namespace_id: group.id })).body as {
      id: number;
      path_with_namespace: string;
    };
    const port = (receiver.address() as AddressInfo).port;
    const created = await call('POST', `/groups/${group.id}/hooks`, {
      url: `http://127.0.0.1:${port}/group-hook`,
      push_events: false,
      alert_events: true,
    });
    expect(created).toMatchObject({ status: 201, body: { alert_events: true, issues_events: false } });
    const hookId = (created.body as { id: number }).id;
    const test = (trigger: string) => call('POST', `/groups/${group.id}/hooks/${hookId}/test/${trigger}`);
    // TestHooks::GroupService then ProjectService: once the hooks service knows the group's project (from
    // the bus), the project has no issue yet.
    const noIssue = await eventually(
      () => test('issues_events'),
      (reply) =>
        (reply.body as { message?: string }).message !== 'Ensure the group has a project with commits.',
      10_000,
      200,
    );
    expect(noIssue).toEqual({ status: 422, body: { message: 'Ensure the project has issues.' } });

    const integration = await call('POST', `/projects/${project.id}/alert_management/http_integrations`, {
      name: 'Monitoring',
      active: true,
    });
    expect(integration.status).toBe(201);
    const { url, token } = integration.body as { url: string; token: string };
    const posted = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: JSON.stringify({ title: 'Disk full', severity: 'high', service: 'db', hosts: ['db-1'] }),
    });
    expect(posted.status).toBe(200);
    const [alert] = (await call('GET', `/projects/${project.id}/alert_management/alerts`)).body as {
      iid: number;
    }[];
    const alertPath = `/projects/${project.id}/alert_management/alerts/${alert!.iid}`;
    expect((await call('PUT', alertPath, { status: 'acknowledged' })).status).toBe(200);
    expect((await call('PUT', alertPath, { status: 'resolved' })).status).toBe(200);

    const ofProject = (kind: string) =>
      received.filter(
        (r) =>
          r.body.object_kind === kind && (r.body.project as { id?: number } | undefined)?.id === project.id,
      );
    const alerts = await eventually(
      async () => ofProject('alert'),
      (list) => list.length >= 3,
      15_000,
      100,
    );
    expect(alerts.map((r) => r.headers['x-gitlab-event'])).toEqual([
      'Alert Hook',
      'Alert Hook',
      'Alert Hook',
    ]);
    const byAction = new Map(alerts.map((r) => [(r.body.object_attributes as { action: string }).action, r]));
    expect([...byAction.keys()].sort()).toEqual(['create', 'resolve', 'update']);
    expect(byAction.get('create')!.body).toMatchObject({
      object_kind: 'alert',
      event_type: 'alert',
      project: { id: project.id, path_with_namespace: project.path_with_namespace },
      object_attributes: {
        iid: alert!.iid,
        title: 'Disk full',
        severity: 'high',
        status: 'triggered',
        service: 'db',
        hosts: ['db-1'],
        events: 1,
        url: `${stack.gatewayUrl}/${project.path_with_namespace}/-/alert_management/${alert!.iid}/details`,
      },
    });
    expect(byAction.get('update')!.body.object_attributes).toMatchObject({ status: 'acknowledged' });
    expect(byAction.get('resolve')!.body.object_attributes).toMatchObject({ status: 'resolved' });
    expect(
      (byAction.get('resolve')!.body.object_attributes as { ended_at: string | null }).ended_at,
    ).not.toBeNull();

    // The group hook's tests: the project's newest alert, then (once it has one) its newest issue.
    expect(await test('alert_events')).toEqual({ status: 201, body: { message: '201 Created' } });
    expect(ofProject('alert')).toHaveLength(4);
    expect(ofProject('alert')[3]!.body).toMatchObject({ object_attributes: { action: 'create' } });
    const issue = await call('POST', `/projects/${project.id}/issues`, { title: 'Group tested' });
    expect(issue.status).toBe(201);
    const tested = await eventually(
      () => test('issues_events'),
      (reply) => reply.status === 201,
      10_000,
      200,
    );
    expect(tested.body).toEqual({ message: '201 Created' });
    const sent = ofProject('issue');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.headers['x-gitlab-event']).toBe('Issue Hook');
    expect(sent[0]!.body).toMatchObject({
      object_kind: 'issue',
      user: { username: 'root' },
      object_attributes: { title: 'Group tested' },
    });
  });

  it('When an issue is updated and a comment edited and deleted, then the hook gets `update` with `changes`, then note `update` and `delete`', async () => {
    const path = unique('hookupd');
    const group = (await call('POST', '/groups', { name: path, path, visibility: 'private' })).body as {
      id: number;
    };
    const project = (await call('POST', '/projects', { name: 'app', namespace_id: group.id })).body as {
      id: number;
    };
    const port = (receiver.address() as AddressInfo).port;
    await call('POST', `/projects/${project.id}/hooks`, {
      url: `http://127.0.0.1:${port}/hook`,
      push_events: false,
      issues_events: true,
      note_events: true,
    });
    const issue = await call('POST', `/projects/${project.id}/issues`, { title: 'Before', labels: 'bug' });
    const iid = (issue.body as { iid: number }).iid;
    const updated = await call('PUT', `/projects/${project.id}/issues/${iid}`, {
      title: 'After',
      labels: 'bug,ui',
    });
    expect(updated.status).toBe(200);
    const notes = `/projects/${project.id}/issues/${iid}/notes`;
    const note = (await call('POST', notes, { body: 'First words' })).body as { id: number };
    expect((await call('PUT', `${notes}/${note.id}`, { body: 'Second words' })).status).toBe(200);
    const deleted = await fetch(`${stack.gatewayUrl}/api/v4${notes}/${note.id}`, {
      method: 'DELETE',
      headers: { 'PRIVATE-TOKEN': ROOT_TOKEN },
    });
    expect(deleted.status).toBe(204);

    const ofProject = () =>
      received.filter((r) => (r.body.project as { id: number } | undefined)?.id === project.id);
    // Issue and note events leave through different outbox writes: compared by kind, not by arrival; a
    // delivery may come twice (at least once), so the wait is for five kinds, not five requests.
    const kindsOf = (list: typeof received) =>
      new Map(
        list.map((r) => [
          `${String(r.headers['x-gitlab-event'])} ${(r.body.object_attributes as { action: string }).action}`,
          r,
        ]),
      );
    const byAction = await eventually(
      async () => kindsOf(ofProject()),
      (kinds) => kinds.size >= 5,
      15_000,
      100,
    );
    expect([...byAction.keys()].sort()).toEqual([
      'Issue Hook open',
      'Issue Hook update',
      'Note Hook create',
      'Note Hook delete',
      'Note Hook update',
    ]);
    // Issuable#to_hook_data: changed columns as {previous, current}, labels as Label#hook_attrs lists.
    const issueUpdate = byAction.get('Issue Hook update')!;
    const changes = issueUpdate.body.changes as Record<string, { previous: unknown; current: unknown }>;
    expect(changes.title).toEqual({ previous: 'Before', current: 'After' });
    expect(changes.labels).toEqual({
      previous: [expect.objectContaining({ title: 'bug' })],
      current: [expect.objectContaining({ title: 'bug' }), expect.objectContaining({ title: 'ui' })],
    });
    for (const action of ['update', 'delete']) {
      expect(byAction.get(`Note Hook ${action}`)!.body.object_attributes).toMatchObject({
        id: note.id,
        note: 'Second words',
      });
    }
  });
});
