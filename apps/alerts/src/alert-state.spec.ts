import { alertStateData } from '@gl/contracts';
import { alertState } from './alerts.service';
import type { Alert } from './alerts.store';

function alert(fields: Partial<Alert> = {}): Alert {
  const now = new Date('2026-11-28T10:00:00.000Z');
  return {
    _id: 1,
    projectId: 2,
    iid: 3,
    integrationId: null,
    title: 'Disk full',
    description: null,
    severity: 'high',
    status: 'acknowledged',
    service: 'db',
    monitoringTool: 'Prometheus',
    hosts: ['db-1'],
    startedAt: now,
    endedAt: null,
    events: 4,
    fingerprint: null,
    environmentName: 'production',
    payload: {},
    issueId: null,
    issueIid: null,
    createdAt: now,
    updatedAt: now,
    ...fields,
  };
}

describe('An alert’s state in its events (for webhooks’ alert_events)', () => {
  it('When an alert is described, then its webhook fields are carried as they are', () => {
    expect(alertState(alert())).toEqual({
      title: 'Disk full',
      severity: 'high',
      status: 'acknowledged',
      startedAt: '2026-11-28T10:00:00.000Z',
      endedAt: null,
      events: 4,
      service: 'db',
      monitoringTool: 'Prometheus',
      hosts: ['db-1'],
      environmentName: 'production',
    });
  });

  it('When fields are longer than the event allows, then they are cut so the event stays within its schema', () => {
    const state = alertState(
      alert({
        title: 't'.repeat(400),
        service: 's'.repeat(300),
        monitoringTool: 'm'.repeat(300),
        environmentName: 'e'.repeat(300),
        hosts: Array.from({ length: 300 }, () => 'h'.repeat(300)),
        endedAt: new Date('2026-11-28T11:00:00.000Z'),
      }),
    );
    expect(alertStateData.parse(state)).toEqual(state);
    expect(state.title).toHaveLength(255);
    expect(state.hosts).toHaveLength(255);
    expect(state.endedAt).toBe('2026-11-28T11:00:00.000Z');
  });
});
