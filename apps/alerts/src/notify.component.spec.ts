import { createHash } from 'node:crypto';
import { alertEntity, notifyResultEntity, type NamespaceContext } from '@gl/contracts';
import { listen, useHarness } from '@gl/testing';
import { z } from 'zod';
import { createAlertsApp } from './app';
import { projectNamespace, startAlertsHarness } from './testing/alerts.harness';
import { createHttpIntegration, deactivateHttpIntegration } from './testing/integrations.fixture';

const alerts = z.array(alertEntity);
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

describe('Alert ingestion', () => {
  const h = useHarness(startAlertsHarness);

  const integration = (ns: NamespaceContext, tier: 'free' | 'ultimate' = 'ultimate', json = {}) =>
    createHttpIntegration(h, ns, { tier, json });

  const listAlerts = async (ns: NamespaceContext) =>
    alerts.parse((await h.call('GET', `/projects/${ns.id}/alert_management/alerts`, { ns })).body);

  describe('status codes, in GitLab order', () => {
    it('When a payload is over 1 MB, then 400 even without a valid integration or token', async () => {
      const ns = projectNamespace();
      const big = JSON.stringify({ title: 'x', blob: 'a'.repeat(1024 * 1024) });
      const reply = await h.notify(`/${ns.fullPath}/alerts/notify/x/abcdef0123456789.json`, {
        ns,
        body: big,
      });
      expect(reply.status).toBe(400);
      expect(reply.text).toBe('');
    });

    it('When a payload nests deeper than 100, then 400 before the integration is looked up', async () => {
      const ns = projectNamespace();
      const deep = '['.repeat(101) + ']'.repeat(101);
      const reply = await h.notify(`/${ns.fullPath}/alerts/notify/x/abcdef0123456789.json`, {
        ns,
        body: `{"a":${deep}}`,
      });
      expect(reply.status).toBe(400);
    });

    it('When no active integration has that identifier, then 403 even with invalid JSON', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      await deactivateHttpIntegration(h, ns, created.id);
      expect((await h.notify(created.path, { ns, token: created.token, body: '{nope' })).status).toBe(403);
      const other = `/${ns.fullPath}/alerts/notify/tool/0000000000000000.json`;
      expect((await h.notify(other, { ns, token: created.token })).status).toBe(403);
    });

    it('When the token is wrong or missing, then 401 even with invalid JSON', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      expect((await h.notify(created.path, { ns, token: 'wrong', body: '{nope' })).status).toBe(401);
      expect((await h.notify(created.path, { ns, body: '{}' })).status).toBe(401);
    });

    it('When the token is right but the JSON is invalid, then 400 and nothing is stored', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      expect((await h.notify(created.path, { ns, token: created.token, body: '{nope' })).status).toBe(400);
      expect(await listAlerts(ns)).toEqual([]);
    });

    it('When a payload string holds a lone surrogate, then 400 and nothing is stored (it read back as U+FFFD)', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const body = '{"title":"broken \\ud800 title"}';
      expect((await h.notify(created.path, { ns, token: created.token, body })).status).toBe(400);
      expect(await listAlerts(ns)).toEqual([]);
    });

    it('When a payload resolves but no open alert matches, then 400 and nothing is stored', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const reply = await h.notify(created.path, {
        ns,
        token: created.token,
        body: { title: 'gone', fingerprint: 'f', end_time: '2026-01-01T00:00:00Z' },
      });
      expect(reply.status).toBe(400);
      expect(await listAlerts(ns)).toEqual([]);
    });

    it('When everything is right, then 200 with [{iid, title}]; HTTP Basic password and the path without .json work too', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const ok = await h.notify(created.path, { ns, token: created.token, body: { title: 'Disk full' } });
      expect(ok.status).toBe(200);
      expect(notifyResultEntity.parse(ok.body)).toEqual([{ iid: 1, title: 'Disk full' }]);
      const basic = `Basic ${Buffer.from(`any:${created.token}`).toString('base64')}`;
      const viaBasic = await h.notify(created.path.replace(/\.json$/, ''), {
        ns,
        authorization: basic,
        body: { title: 'Second' },
      });
      expect(viaBasic.status).toBe(200);
      expect(viaBasic.body).toEqual([{ iid: 2, title: 'Second' }]);
    });
  });

  describe('mapping', () => {
    it('When a full payload arrives, then every field maps, custom fields stay in the payload and long fields are truncated', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const payload = {
        title: 'T'.repeat(250),
        description: 'D'.repeat(1200),
        start_time: '2026-03-01T10:00:00Z',
        service: 'api',
        monitoring_tool: 'Datadog',
        hosts: 'host-1',
        severity: 'HiGh',
        fingerprint: ['a', 'b'],
        platform_environment_name: 'production',
        'custom.key': { nested: [1, { deep: true }] },
      };
      expect((await h.notify(created.path, { ns, token: created.token, body: payload })).status).toBe(200);
      const [alert] = await listAlerts(ns);
      expect(alert).toMatchObject({
        iid: 1,
        status: 'triggered',
        severity: 'high',
        service: 'api',
        monitoring_tool: 'Datadog',
        hosts: ['host-1'],
        started_at: '2026-03-01T10:00:00.000Z',
        ended_at: null,
        event_count: 1,
        fingerprint: sha1('ab'),
        environment: { name: 'production' },
        issue_iid: null,
      });
      expect(alert!.title).toHaveLength(200);
      expect(alert!.description).toHaveLength(1000);
      expect(alert!.payload).toEqual(payload);
    });

    it('When fields are absent or unknown, then title is "New: Incident", severity critical, start time now; unknown is kept', async () => {
      const ns = projectNamespace();
      const created = await integration(ns, 'free');
      const before = Date.now();
      await h.notify(created.path, { ns, token: created.token, body: {}, tier: 'free' });
      await h.notify(created.path, { ns, token: created.token, body: { severity: 'bogus' }, tier: 'free' });
      await h.notify(created.path, { ns, token: created.token, body: { severity: 'UNKNOWN' }, tier: 'free' });
      const list = (await listAlerts(ns)).sort((a, b) => a.iid - b.iid);
      expect(list.map((a) => [a.title, a.severity])).toEqual([
        ['New: Incident', 'critical'],
        ['New: Incident', 'critical'],
        ['New: Incident', 'unknown'],
      ]);
      expect(Date.parse(list[0]!.started_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(list[0]!.fingerprint).toBeNull();
    });

    it('When hosts is an array longer than 255 characters in total, then it is cut at 255', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const hosts = ['a'.repeat(200), 'b'.repeat(100), 'c'];
      await h.notify(created.path, { ns, token: created.token, body: { hosts } });
      const [alert] = await listAlerts(ns);
      expect(alert!.hosts).toEqual(['a'.repeat(200), 'b'.repeat(55)]);
    });
  });

  describe('grouping and resolving', () => {
    it('When the same fingerprint arrives again, then the open alert counts the event instead of a new alert', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const body = { title: 'CPU', fingerprint: 'cpu-1' };
      const first = await h.notify(created.path, { ns, token: created.token, body });
      const second = await h.notify(created.path, {
        ns,
        token: created.token,
        body: { ...body, title: 'other' },
      });
      expect(second.body).toEqual(first.body);
      const list = await listAlerts(ns);
      expect(list).toHaveLength(1);
      expect(list[0]).toMatchObject({ event_count: 2, fingerprint: sha1('cpu-1'), title: 'CPU' });
    });

    it('When end_time arrives, then the alert resolves; the same fingerprint later opens a new alert', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      await h.notify(created.path, { ns, token: created.token, body: { fingerprint: 'f1' } });
      const resolved = await h.notify(created.path, {
        ns,
        token: created.token,
        body: { fingerprint: 'f1', end_time: '2026-04-01T12:00:00Z' },
      });
      expect(resolved.status).toBe(200);
      expect(resolved.body).toEqual([{ iid: 1, title: 'New: Incident' }]);
      const again = await h.notify(created.path, { ns, token: created.token, body: { fingerprint: 'f1' } });
      expect(again.body).toEqual([{ iid: 2, title: 'New: Incident' }]);
      const byIid = (await listAlerts(ns)).sort((a, b) => a.iid - b.iid);
      expect(byIid.map((a) => [a.iid, a.status, a.ended_at])).toEqual([
        [1, 'resolved', '2026-04-01T12:00:00.000Z'],
        [2, 'triggered', null],
      ]);
    });

    it('When identical payloads without fingerprint arrive on a higher tier, then they group ignoring start_time, end_time and hosts', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const body = { title: 'Same', service: 's', custom: { a: 1 } };
      await h.notify(created.path, {
        ns,
        token: created.token,
        body: { ...body, start_time: '2026-01-01T00:00:00Z', hosts: ['a'] },
      });
      await h.notify(created.path, {
        ns,
        token: created.token,
        body: { ...body, start_time: '2026-01-02T00:00:00Z', hosts: ['b'] },
      });
      await h.notify(created.path, { ns, token: created.token, body: { ...body, service: 'other' } });
      const list = (await listAlerts(ns)).sort((a, b) => a.iid - b.iid);
      expect(list.map((a) => a.event_count)).toEqual([2, 1]);
      expect(list[0]!.fingerprint).toBe(sha1('[["custom.a", 1], ["service", "s"], ["title", "Same"]]'));
    });

    it('When identical payloads without fingerprint arrive on free, then each creates a new alert', async () => {
      const ns = projectNamespace();
      const created = await integration(ns, 'free');
      for (let i = 0; i < 2; i++)
        await h.notify(created.path, { ns, token: created.token, body: { title: 'Same' }, tier: 'free' });
      expect(await listAlerts(ns)).toHaveLength(2);
    });

    it('When an integration creates incidents, then alert.created carries createIncident and resolving publishes alert.resolved', async () => {
      const ns = projectNamespace();
      const created = await integration(ns, 'ultimate', { create_incident: true });
      await h.notify(created.path, { ns, token: created.token, body: { title: 'Inc', fingerprint: 'i' } });
      await h.notify(created.path, { ns, token: created.token, body: { fingerprint: 'i', end_time: 'now' } });
      const [alert] = await listAlerts(ns);
      const events = (await h.events()).filter((e) => e.projectId === ns.id);
      expect(events.map((e) => e.type).sort()).toEqual([
        'gl.alerts.alert.created',
        'gl.alerts.alert.resolved',
      ]);
      const state = {
        title: 'Inc',
        severity: 'critical',
        status: 'triggered',
        startedAt: alert!.started_at,
        endedAt: null,
        events: 1,
        service: null,
        monitoringTool: null,
        hosts: [],
        environmentName: null,
      };
      expect(events.find((e) => e.type === 'gl.alerts.alert.created')!.data).toEqual({
        alertId: String(alert!.id),
        alertIid: 1,
        title: 'Inc',
        description: null,
        severity: 'critical',
        createIncident: true,
        state,
      });
      expect(events.find((e) => e.type === 'gl.alerts.alert.resolved')!.data).toEqual({
        alertId: String(alert!.id),
        alertIid: 1,
        state: { ...state, status: 'resolved', endedAt: alert!.ended_at },
      });
    });
  });

  describe('concurrency', () => {
    const second = useHarness(() => listen(createAlertsApp(h.runtime).app));

    it('When 40 identical payloads race on two service instances, then exactly one alert counts all 40 events', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const body = { title: 'Race', fingerprint: 'race' };
      const replies = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          h.notify(created.path, { ns, token: created.token, body }, i % 2 ? second : h.server),
        ),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(40).fill(200));
      const list = await listAlerts(ns);
      expect(list).toHaveLength(1);
      expect(list[0]!.event_count).toBe(40);
      expect(new Set(replies.map((r) => JSON.stringify(r.body))).size).toBe(1);
    });

    it('When identical payloads without fingerprint race on a higher tier, then they also group into one alert', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          h.notify(
            created.path,
            { ns, token: created.token, body: { title: 'Same' } },
            i % 2 ? second : h.server,
          ),
        ),
      );
      const list = await listAlerts(ns);
      expect(list).toHaveLength(1);
      expect(list[0]!.event_count).toBe(20);
    });
  });

  describe('Prometheus, Opsgenie and the test alert', () => {
    it('When Alertmanager posts firing then resolved alerts, then 201 and the alert opens and resolves', async () => {
      const ns = projectNamespace();
      const put = await h.call('PUT', `/projects/${ns.id}/alert_management/prometheus_integration`, {
        ns,
        json: { active: true },
      });
      const { token } = put.body as { token: string };
      const path = `/${ns.fullPath}/prometheus/alerts/notify.json`;
      const alert = {
        status: 'firing',
        labels: { alertname: 'HighLatency', severity: 'warning' },
        annotations: { summary: 'Latency high', description: 'p99 > 1s' },
        startsAt: '2026-05-01T00:00:00Z',
        generatorURL: 'http://prom/graph?g0.expr=x',
        fingerprint: 'abc123',
      };
      const body = { version: '4', status: 'firing', alerts: [alert] };
      expect((await h.notify(path, { ns, token: 'bad', body })).status).toBe(401);
      const firing = await h.notify(path, { ns, token, body });
      expect(firing.status).toBe(201);
      const resolved = await h.notify(path, {
        ns,
        token,
        body: { ...body, alerts: [{ ...alert, status: 'resolved', endsAt: '2026-05-01T01:00:00Z' }] },
      });
      expect(resolved.status).toBe(201);
      const [stored] = await listAlerts(ns);
      expect(stored).toMatchObject({
        title: 'Latency high',
        description: 'p99 > 1s',
        severity: 'high',
        monitoring_tool: 'Prometheus',
        status: 'resolved',
        ended_at: '2026-05-01T01:00:00.000Z',
      });
    });

    it('When the Opsgenie link-out is active, then notify calls are refused with 403', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      await deactivateHttpIntegration(h, ns, created.id);
      await h.call('PUT', `/projects/${ns.id}/alert_management/opsgenie`, {
        ns,
        json: { active: true, api_url: 'https://x.app.opsgenie.com' },
      });
      await h.runtime.connection
        .collection('integrations')
        .updateOne({ _id: created.id as never }, { $set: { active: true } });
      expect((await h.notify(created.path, { ns, token: created.token })).status).toBe(403);
    });

    it('When a developer sends a test alert, then it is ingested; invalid JSON gives an error message and stores nothing', async () => {
      const ns = projectNamespace();
      const created = await integration(ns);
      const path = `/projects/${ns.id}/alert_management/http_integrations/${created.id}/test`;
      const { DEVELOPER, REPORTER } = await import('./testing/alerts.harness');
      const bad = await h.call('POST', path, { ns, as: DEVELOPER, json: { payload: '{oops' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ message: { error: 'Test payload is not valid JSON' } });
      expect(await listAlerts(ns)).toEqual([]);
      expect((await h.call('POST', path, { ns, as: REPORTER, json: { title: 'x' } })).status).toBe(403);
      const ok = await h.call('POST', path, {
        ns,
        as: DEVELOPER,
        json: { payload: '{"title":"Test alert"}' },
      });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ success: true, alerts: [{ iid: 1, title: 'Test alert' }] });
    });
  });
});

describe('Alert ingestion rate limit', () => {
  const h = useHarness(() =>
    startAlertsHarness({ ALERTS_NOTIFY_RATE_LIMIT: 2, ALERTS_NOTIFY_RATE_PERIOD_SECONDS: 60 }),
  );

  it('When an integration exceeds the configured rate, then 429 with Retry-After', async () => {
    const ns = projectNamespace();
    const { path, token } = await createHttpIntegration(h, ns, { json: { name: 'r' } });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await h.notify(path, { ns, token })).status);
    expect(statuses).toEqual([200, 200, 429]);
    const limited = await h.notify(path, { ns, token });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(limited.text).toBe('Retry later\n');
  });
});
