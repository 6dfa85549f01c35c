import { randomUUID } from 'node:crypto';
import { DOMAIN_EVENT_TYPES, alertStateData, type AlertStateData, type EventEnvelope } from '@gl/contracts';
import { alertPayload } from './alert';
import { buildPayload, DELIVERED_EVENT_TYPES, scopeOf, SCOPES } from './build';
import { fakeDiscussions } from './fake-discussions.test-helpers';
import { payloadProject } from './project';

const A = DOMAIN_EVENT_TYPES.alerts;

const project = payloadProject(42, {
  _id: 42,
  name: 'Web',
  path: 'web',
  fullPath: 'acme/web',
  namespaceId: 7,
  ancestorGroupIds: [7],
  visibility: 'internal',
  occurredAt: '2026-01-01T00:00:00.000Z',
});

const state: AlertStateData = {
  title: 'CPU high',
  severity: 'high',
  status: 'triggered',
  startedAt: '2026-11-28T10:00:00.000Z',
  endedAt: null,
  events: 3,
  service: 'api',
  monitoringTool: 'Prometheus',
  hosts: ['web-1', 'web-2'],
  environmentName: 'production',
};

function alertEvent(type: string, data: Record<string, unknown>, actor: EventEnvelope['actor'] = null) {
  return {
    id: randomUUID(),
    type,
    version: 1,
    occurredAt: new Date().toISOString(),
    producer: 'alerts',
    correlationId: null,
    actor,
    projectId: 42,
    groupId: null,
    data: { alertId: '900', alertIid: 5, ...data },
  } satisfies EventEnvelope;
}

describe('Alert Hook payloads (beyond GitLab)', () => {
  it('When an alert is recorded, then the payload has Gitlab::DataBuilder::Alert’s attributes, the alert’s others and action create', () => {
    const event = alertEvent(A.alertCreated, {
      title: 'CPU high',
      description: null,
      severity: 'high',
      createIncident: false,
      state,
    });
    const payload = alertPayload(event, project, 'https://gl.example.com/');
    expect(Object.keys(payload)).toEqual(['object_kind', 'event_type', 'project', 'object_attributes']);
    expect(payload).toMatchObject({
      object_kind: 'alert',
      event_type: 'alert',
      project: {
        id: 42,
        name: 'Web',
        path_with_namespace: 'acme/web',
        web_url: 'https://gl.example.com/acme/web',
        visibility_level: 10,
      },
    });
    expect(payload.object_attributes).toEqual({
      iid: 5,
      title: 'CPU high',
      url: 'https://gl.example.com/acme/web/-/alert_management/5/details',
      severity: 'high',
      events: 3,
      status: 'triggered',
      started_at: '2026-11-28T10:00:00.000Z',
      ended_at: null,
      monitoring_tool: 'Prometheus',
      service: 'api',
      hosts: ['web-1', 'web-2'],
      environment: { name: 'production' },
      action: 'create',
    });
  });

  it('When a status is set or the alert resolved, then the action is update or resolve with the state it carries', () => {
    const acknowledged = alertEvent(
      A.alertUpdated,
      { state: { ...state, status: 'acknowledged', environmentName: null } },
      { id: 3, username: 'dev', name: 'Dev' },
    );
    expect(alertPayload(acknowledged, project, 'http://gl.test').object_attributes).toMatchObject({
      status: 'acknowledged',
      environment: null,
      action: 'update',
    });
    const resolved = alertEvent(A.alertResolved, {
      state: { ...state, status: 'resolved', endedAt: '2026-11-28T11:00:00.000Z' },
    });
    expect(alertPayload(resolved, project, 'http://gl.test').object_attributes).toMatchObject({
      status: 'resolved',
      ended_at: '2026-11-28T11:00:00.000Z',
      action: 'resolve',
    });
  });

  it('When an older event carries no state, then what it has is sent and the rest is null', () => {
    const created = alertEvent(A.alertCreated, {
      title: 'Old',
      description: 'd',
      severity: 'critical',
      createIncident: true,
    });
    expect(alertPayload(created, project, 'http://gl.test').object_attributes).toEqual({
      iid: 5,
      title: 'Old',
      url: 'http://gl.test/acme/web/-/alert_management/5/details',
      severity: 'critical',
      events: null,
      status: 'triggered',
      started_at: null,
      ended_at: null,
      monitoring_tool: null,
      service: null,
      hosts: [],
      environment: null,
      action: 'create',
    });
    const resolved = alertEvent(A.alertResolved, {});
    expect(alertPayload(resolved, project, 'http://gl.test').object_attributes).toMatchObject({
      title: null,
      status: 'resolved',
      action: 'resolve',
    });
  });

  it('When alert events are scoped, then they go to alert_events hooks as Alert Hook, and buildPayload builds them without reads', async () => {
    for (const type of [A.alertCreated, A.alertUpdated, A.alertResolved]) {
      expect(DELIVERED_EVENT_TYPES).toContain(type);
      expect(scopeOf(alertEvent(type, { state }))).toBe(SCOPES.alert);
    }
    expect(SCOPES.alert).toEqual({ flag: 'alert_events', trigger: 'alert_hooks', eventName: 'Alert Hook' });
    const built = await buildPayload(
      {
        event: alertEvent(A.alertUpdated, { state }),
        project,
        externalUrl: 'http://gl.test',
        source: fakeDiscussions(),
      },
      SCOPES.alert,
    );
    expect(built).toMatchObject({ object_kind: 'alert', object_attributes: { action: 'update' } });
  });

  it('When an event’s state breaks its bounds, then the contract refuses it', () => {
    expect(alertStateData.safeParse(state).success).toBe(true);
    expect(alertStateData.safeParse({ ...state, service: 's'.repeat(256) }).success).toBe(false);
    expect(alertStateData.safeParse({ ...state, hosts: Array(256).fill('h') }).success).toBe(false);
    expect(alertStateData.safeParse({ ...state, title: 't'.repeat(256) }).success).toBe(false);
  });
});
