import { alertEntity, errorTrackingSettingsEntity, httpIntegrationEntity } from '@gl/contracts';
import { z } from 'zod';
import { api, eventually, gatewayUrl, gitlab, unique } from './e2e.helpers';

/**
 * Alert ingestion through the gateway as a monitoring tool sends it (plain fetch, Bearer integration
 * token, outside /api/v4), the incident the discussions service opens and closes for it, and the
 * error-tracking settings with @gitbeaker/rest.
 */
describe('alerts through the gateway', () => {
  const root = gitlab();
  let projectId: number;
  let projectPath: string;

  beforeAll(async () => {
    const name = unique('alerts');
    const project = await root.Projects.create({ name, path: name, visibility: 'private' });
    projectId = project.id;
    projectPath = project.path_with_namespace as string;
  });

  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  describe('an HTTP integration', () => {
    let integration: z.infer<typeof httpIntegrationEntity>;

    beforeAll(async () => {
      const created = await api(
        `/projects/${projectId}/alert_management/http_integrations`,
        json({ name: 'Monitoring', active: true, create_incident: true }),
      );
      expect(created.status).toBe(201);
      integration = httpIntegrationEntity.parse(await created.json());
    });

    const send = (body: unknown, token = integration.token) =>
      fetch(integration.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });

    it('When an HTTP integration is created, then its URL is the notify path under the project path', () => {
      expect(integration.url).toBe(
        `${gatewayUrl()}/${projectPath}/alerts/notify/monitoring/${integration.endpoint_identifier}.json`,
      );
    });

    it('When an alert is posted with a wrong token, then 401', async () => {
      expect((await send({ title: 'x' }, 'wrong')).status).toBe(401);
    });

    it('When a 1 MB alert is posted, then 400 before the token is looked at', async () => {
      expect((await send({ blob: 'a'.repeat(1024 * 1024) }, 'wrong')).status).toBe(400);
    });

    it('When an alert is posted to an unknown endpoint identifier, then 403', async () => {
      const unknown = integration.url.replace(integration.endpoint_identifier, '0000000000000000');
      expect((await fetch(unknown, json({ title: 'x' }))).status).toBe(403);
    });

    it('When a monitoring tool posts alerts, then they group, resolve, and the incident opens and closes', async () => {
      const alert = { title: 'API down', severity: 'high', fingerprint: 'api-down', service: 'api' };
      const first = await send(alert);
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual([{ iid: 1, title: 'API down' }]);
      const second = await send({ ...alert, start_time: new Date().toISOString() });
      expect(await second.json()).toEqual([{ iid: 1, title: 'API down' }]);

      const read = async () =>
        alertEntity.parse(await (await api(`/projects/${projectId}/alert_management/alerts/1`)).json());
      expect(await read()).toMatchObject({ event_count: 2, status: 'triggered', severity: 'high' });

      const linked = await eventually(read, (a) => a.issue_iid !== null);
      expect(linked.issue_iid).not.toBeNull();
      const issue = async () =>
        (await (await api(`/projects/${projectId}/issues/${linked.issue_iid}`)).json()) as {
          state: string;
          issue_type: string;
        };
      expect(await issue()).toMatchObject({ state: 'opened', issue_type: 'incident' });

      const resolved = await send({ fingerprint: 'api-down', end_time: new Date().toISOString() });
      expect(resolved.status).toBe(200);
      expect(await read()).toMatchObject({ status: 'resolved' });
      expect(await eventually(issue, (i) => i.state === 'closed')).toMatchObject({ state: 'closed' });

      const list = z
        .array(alertEntity)
        .parse(await (await api(`/projects/${projectId}/alert_management/alerts?status=resolved`)).json());
      expect(list.map((a) => a.iid)).toEqual([1]);
    });
  });

  it('When error-tracking settings are managed with gitbeaker, then create, show and edit work', async () => {
    const missing = await api(`/projects/${projectId}/error_tracking/settings`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ message: '404 Error Tracking Setting Not Found' });

    const created = errorTrackingSettingsEntity.parse(
      await root.ErrorTrackingSettings.create(projectId, true, true),
    );
    expect(created).toMatchObject({ active: true, integrated: true });
    const edited = errorTrackingSettingsEntity.parse(await root.ErrorTrackingSettings.edit(projectId, false));
    expect(edited.active).toBe(false);
    const shown = errorTrackingSettingsEntity.parse(await root.ErrorTrackingSettings.show(projectId));
    expect(shown).toEqual(edited);
  });
});
