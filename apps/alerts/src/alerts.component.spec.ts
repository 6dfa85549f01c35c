import { randomUUID } from 'node:crypto';
import { alertEntity, alertResolvedData, alertUpdatedData, type NamespaceContext } from '@gl/contracts';
import { PoisonMessageError } from '@gl/service-kit';
import { z } from 'zod';
import { projectNamespace, startAlertsHarness } from './testing/alerts.harness';
import { createHttpIntegration } from './testing/integrations.fixture';
import { DEVELOPER, REPORTER, useHarness } from '@gl/testing';

const alerts = z.array(alertEntity);

describe('Alerts API', () => {
  const h = useHarness(startAlertsHarness);

  async function seed(ns: NamespaceContext, payloads: Record<string, unknown>[]) {
    const { path, token } = await createHttpIntegration(h, ns, { json: { name: 'seed' } });
    for (const body of payloads) {
      const reply = await h.notify(path, { ns, token, body });
      expect(reply.status).toBe(200);
    }
    return { path, token };
  }

  const base = (ns: NamespaceContext) => `/projects/${ns.id}/alert_management/alerts`;
  const list = async (ns: NamespaceContext, query: Record<string, string> = {}) => {
    const reply = await h.call('GET', base(ns), { ns, query });
    expect(reply.status).toBe(200);
    return { alerts: alerts.parse(reply.body), headers: reply.headers };
  };

  it('When alerts are listed, then filters by status, severity and search work and pagination headers are set', async () => {
    const ns = projectNamespace();
    await seed(ns, [
      { title: 'Disk full', severity: 'low', service: 'db', fingerprint: 'a' },
      { title: 'CPU hot', severity: 'high', hosts: ['web-1'], fingerprint: 'b' },
      { title: 'Memory', severity: 'high', description: 'leak in worker', fingerprint: 'c' },
    ]);
    await h.call('PUT', `${base(ns)}/1`, { ns, json: { status: 'acknowledged' } });

    expect((await list(ns, { severity: 'high' })).alerts.map((a) => a.title).sort()).toEqual([
      'CPU hot',
      'Memory',
    ]);
    expect((await list(ns, { status: 'acknowledged' })).alerts.map((a) => a.iid)).toEqual([1]);
    expect((await list(ns, { search: 'LEAK' })).alerts.map((a) => a.iid)).toEqual([3]);
    expect((await list(ns, { search: 'web-1' })).alerts.map((a) => a.iid)).toEqual([2]);
    expect((await list(ns, { search: 'db' })).alerts.map((a) => a.iid)).toEqual([1]);

    const page = await list(ns, { per_page: '2', page: '2' });
    expect(page.alerts).toHaveLength(1);
    expect(page.headers.get('x-total')).toBe('3');
    expect(page.headers.get('x-total-pages')).toBe('2');
    const invalid = await h.call('GET', base(ns), { ns, query: { status: 'bogus' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'status does not have a valid value' });
  });

  it('When alerts are sorted, then severity and status ascend from the least critical and event_count by count', async () => {
    const ns = projectNamespace();
    const { path, token } = await seed(ns, [
      { title: 'crit', severity: 'critical', fingerprint: 'c', start_time: '2026-01-03T00:00:00Z' },
      { title: 'info', severity: 'info', fingerprint: 'i', start_time: '2026-01-01T00:00:00Z' },
      { title: 'med', severity: 'medium', fingerprint: 'm', start_time: '2026-01-02T00:00:00Z' },
    ]);
    await h.notify(path, { ns, token, body: { fingerprint: 'm' } });
    await h.call('PUT', `${base(ns)}/2`, { ns, json: { status: 'ignored' } });
    const titles = async (query: Record<string, string>) =>
      (await list(ns, query)).alerts.map((a) => a.title);
    expect(await titles({ order_by: 'severity', sort: 'asc' })).toEqual(['info', 'med', 'crit']);
    expect(await titles({ order_by: 'severity', sort: 'desc' })).toEqual(['crit', 'med', 'info']);
    expect((await titles({ order_by: 'status', sort: 'asc' }))[0]).toBe('info');
    expect((await titles({ order_by: 'event_count', sort: 'desc' }))[0]).toBe('med');
    expect(await titles({})).toEqual(['crit', 'med', 'info']);
    expect(await titles({ order_by: 'started_at', sort: 'asc' })).toEqual(['info', 'med', 'crit']);
  });

  it('When the status changes, then ended_at is set on resolve and cleared otherwise, and each change publishes alert.resolved or alert.updated', async () => {
    const ns = projectNamespace();
    await seed(ns, [{ title: 'x', fingerprint: 'x' }]);
    const put = (status: string) => h.call('PUT', `${base(ns)}/1`, { ns, as: DEVELOPER, json: { status } });
    const acknowledged = alertEntity.parse((await put('acknowledged')).body);
    expect(acknowledged).toMatchObject({ status: 'acknowledged', ended_at: null });
    const resolved = alertEntity.parse((await put('resolved')).body);
    expect(resolved.status).toBe('resolved');
    expect(resolved.ended_at).not.toBeNull();
    const reopened = alertEntity.parse((await put('triggered')).body);
    expect(reopened).toMatchObject({ status: 'triggered', ended_at: null });
    const events = (await h.events()).filter(
      (e) => e.projectId === ns.id && e.type === 'gl.alerts.alert.resolved',
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.actor).toEqual({
      id: DEVELOPER.id,
      username: DEVELOPER.username,
      name: DEVELOPER.name,
    });
    // For webhooks' alert_events: each change carries the alert as it now is.
    expect(alertResolvedData.parse(events[0]!.data).state).toMatchObject({
      title: 'x',
      status: 'resolved',
      endedAt: resolved.ended_at,
    });
    const updates = (await h.events()).filter(
      (e) => e.projectId === ns.id && e.type === 'gl.alerts.alert.updated',
    );
    expect(updates.map((e) => alertUpdatedData.parse(e.data).state.status)).toEqual([
      'acknowledged',
      'triggered',
    ]);
    expect(alertUpdatedData.parse(updates[1]!.data)).toMatchObject({
      alertIid: 1,
      state: { title: 'x', endedAt: null, severity: 'critical' },
    });
    expect(updates[0]!.actor).toMatchObject({ id: DEVELOPER.id });
    const bad = await put('closed');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: 'status does not have a valid value' });
  });

  it('When a resolved alert is reopened while another unresolved alert has its fingerprint, then 400', async () => {
    const ns = projectNamespace();
    const { path, token } = await seed(ns, [{ fingerprint: 'dup' }]);
    await h.call('PUT', `${base(ns)}/1`, { ns, json: { status: 'resolved' } });
    await h.notify(path, { ns, token, body: { fingerprint: 'dup' } });
    const reply = await h.call('PUT', `${base(ns)}/1`, { ns, json: { status: 'triggered' } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: { fingerprint: ['Cannot have multiple unresolved alerts'] } });
  });

  it('When a reporter reads alerts, then 403; an unknown iid, then 404 Alert Not Found', async () => {
    const ns = projectNamespace();
    expect((await h.call('GET', base(ns), { ns, as: REPORTER })).status).toBe(403);
    const missing = await h.call('GET', `${base(ns)}/99`, { ns, as: DEVELOPER });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: '404 Alert Not Found' });
  });

  it('When discussions reports the incident it opened, then the alert shows issue_iid, also after a replay', async () => {
    const ns = projectNamespace();
    await seed(ns, [{ title: 'needs incident' }]);
    const [alert] = (await list(ns)).alerts;
    const subscription = h.instance.subscriptions![0]!;
    expect(subscription.durable).toBe('alerts-incidents');
    const event = {
      id: randomUUID(),
      type: 'gl.discussions.incident.opened',
      version: 1,
      occurredAt: new Date().toISOString(),
      producer: 'discussions',
      correlationId: null,
      actor: null,
      projectId: ns.id,
      groupId: null,
      data: { alertId: String(alert!.id), issueId: 700, issueIid: 7 },
    };
    await subscription.handle(event);
    await subscription.handle(event);
    const shown = alertEntity.parse((await h.call('GET', `${base(ns)}/${alert!.iid}`, { ns })).body);
    expect(shown.issue_iid).toBe(7);
    await expect(subscription.handle({ ...event, data: { alertId: 'x' } })).rejects.toBeInstanceOf(
      PoisonMessageError,
    );
  });
});
