import { httpIntegrationEntity, prometheusIntegrationEntity } from '@gl/contracts';
import { z } from 'zod';
import { projectNamespace, startAlertsHarness } from './testing/alerts.harness';
import {
  createHttpIntegration,
  deactivateHttpIntegration,
  httpIntegrationsPath as base,
} from './testing/integrations.fixture';
import { DEVELOPER, MAINTAINER, useHarness } from '@gl/testing';

const list = z.array(httpIntegrationEntity);

describe('HTTP alert integrations', () => {
  const h = useHarness(startAlertsHarness);

  it('When a maintainer creates an integration, then it answers 201 with the notify URL and a token shown only then', async () => {
    const ns = projectNamespace();
    const created = await h.call('POST', base(ns.id), {
      ns,
      as: MAINTAINER,
      json: { name: 'My Tool', active: true },
    });
    expect(created.status).toBe(201);
    const integration = httpIntegrationEntity.parse(created.body);
    expect(integration).toMatchObject({
      name: 'My Tool',
      active: true,
      type: 'http',
      create_incident: false,
    });
    expect(integration.endpoint_identifier).toMatch(/^[0-9a-f]{16}$/);
    expect(integration.url).toBe(
      `http://localhost/${ns.fullPath}/alerts/notify/my-tool/${integration.endpoint_identifier}.json`,
    );
    expect(integration.token).toMatch(/^[0-9a-f]{32}$/);

    const shown = httpIntegrationEntity.parse(
      (await h.call('GET', `${base(ns.id)}/${integration.id}`, { ns })).body,
    );
    expect(shown.token).toBeUndefined();
    const all = list.parse((await h.call('GET', base(ns.id), { ns })).body);
    expect(all.map((i) => i.id)).toEqual([integration.id]);
    expect(all[0]!.token).toBeUndefined();

    const stored = await h.runtime.connection
      .collection('integrations')
      .findOne({ _id: integration.id as never });
    expect(JSON.stringify(stored)).not.toContain(integration.token!);
  });

  it('When the token is reset, then the new token is shown once and differs from the old one', async () => {
    const ns = projectNamespace();
    const first = await createHttpIntegration(h, ns, { json: { name: 'x' } });
    const reset = await h.call('POST', `${base(ns.id)}/${first.id}/reset_token`, { ns });
    expect(reset.status).toBe(200);
    const again = httpIntegrationEntity.parse(reset.body);
    expect(again.token).toMatch(/^[0-9a-f]{32}$/);
    expect(again.token).not.toBe(first.token);
  });

  it('When an integration is renamed, deactivated and deleted, then each answer reflects it and it is gone afterwards', async () => {
    const ns = projectNamespace();
    const created = await createHttpIntegration(h, ns, { json: { name: 'a' } });
    const updated = await h.call('PUT', `${base(ns.id)}/${created.id}`, {
      ns,
      json: { name: 'b', active: false, create_incident: true },
    });
    expect(updated.status).toBe(200);
    expect(httpIntegrationEntity.parse(updated.body)).toMatchObject({
      name: 'b',
      active: false,
      create_incident: true,
    });
    expect((await h.call('DELETE', `${base(ns.id)}/${created.id}`, { ns })).status).toBe(204);
    expect((await h.call('GET', `${base(ns.id)}/${created.id}`, { ns })).status).toBe(404);
  });

  it('When a developer manages integrations, then 403; without a user, then 401', async () => {
    const ns = projectNamespace();
    expect((await h.call('GET', base(ns.id), { ns, as: DEVELOPER })).status).toBe(403);
    expect(
      (await h.call('POST', base(ns.id), { ns, as: DEVELOPER, json: { name: 'a', active: true } })).status,
    ).toBe(403);
    expect((await h.call('GET', base(ns.id), { ns, as: null })).status).toBe(401);
  });

  it('When name or active is missing, then Grape-style 400s', async () => {
    const ns = projectNamespace();
    const reply = await h.call('POST', base(ns.id), { ns, json: {} });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'name is missing, active is missing' });
  });

  it('When a second HTTP endpoint is created on free, then 403; on a higher tier, then several are allowed', async () => {
    const ns = projectNamespace();
    const json = { name: 'one', active: true };
    expect((await h.call('POST', base(ns.id), { ns, json, tier: 'free' })).status).toBe(201);
    const second = await h.call('POST', base(ns.id), { ns, json, tier: 'free' });
    expect(second.status).toBe(403);
    expect(second.body).toEqual({
      message: '403 Forbidden - Multiple HTTP integrations are not supported for this project',
    });
    expect((await h.call('POST', base(ns.id), { ns, json, tier: 'premium' })).status).toBe(201);
  });

  it('When several HTTP endpoints are listed, then oldest first, a page at a time with pagination headers', async () => {
    const ns = projectNamespace();
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      const created = await h.call('POST', base(ns.id), {
        ns,
        json: { name, active: true },
        tier: 'premium',
      });
      ids.push(httpIntegrationEntity.parse(created.body).id);
    }
    const all = await h.call('GET', base(ns.id), { ns });
    expect(list.parse(all.body).map((i) => i.id)).toEqual(ids);
    expect([all.headers.get('x-total'), all.headers.get('x-page'), all.headers.get('x-per-page')]).toEqual([
      '3',
      '1',
      '20',
    ]);
    const second = await h.call('GET', `${base(ns.id)}?per_page=2&page=2`, { ns });
    expect(list.parse(second.body).map((i) => i.id)).toEqual([ids[2]]);
    expect(second.headers.get('x-total-pages')).toBe('2');
    expect(second.headers.get('x-next-page')).toBe('');
    expect(second.headers.get('link')).toContain('rel="prev"');
    expect((await h.call('GET', `${base(ns.id)}?per_page=0`, { ns })).body).toEqual({
      error: 'per_page has a value not allowed',
    });
    const other = projectNamespace();
    const empty = await h.call('GET', base(other.id), { ns: other });
    expect(empty.body).toEqual([]);
    expect(empty.headers.get('x-total')).toBe('0');
  });

  it('When two HTTP endpoints are created at once on free, then only one succeeds', async () => {
    const ns = projectNamespace();
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        h.call('POST', base(ns.id), { ns, json: { name: 'race', active: true }, tier: 'free' }),
      ),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([201, 403, 403, 403, 403, 403]);
    expect(list.parse((await h.call('GET', base(ns.id), { ns })).body)).toHaveLength(1);
  });

  it('When the Opsgenie link-out is active, then no other integration can be activated, and vice versa', async () => {
    const ns = projectNamespace();
    const opsgenie = `/projects/${ns.id}/alert_management/opsgenie`;
    const http = await createHttpIntegration(h, ns, { json: { name: 'h' } });
    const refused = await h.call('PUT', opsgenie, {
      ns,
      json: { active: true, api_url: 'https://example.app.opsgenie.com' },
    });
    expect(refused.status).toBe(400);
    await deactivateHttpIntegration(h, ns, http.id);
    const ok = await h.call('PUT', opsgenie, {
      ns,
      json: { active: true, api_url: 'https://example.app.opsgenie.com' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ active: true, api_url: 'https://example.app.opsgenie.com' });
    expect((await h.call('GET', opsgenie, { ns })).body).toEqual(ok.body);
    expect((await h.call('PUT', `${base(ns.id)}/${http.id}`, { ns, json: { active: true } })).status).toBe(
      400,
    );
    expect((await h.call('PUT', opsgenie, { ns, json: { active: true } })).status).toBe(400);
  });

  it('When the Prometheus integration is set up, then its token is shown on creation only and GET shows it', async () => {
    const ns = projectNamespace();
    const path = `/projects/${ns.id}/alert_management/prometheus_integration`;
    expect((await h.call('GET', path, { ns })).status).toBe(404);
    const created = await h.call('PUT', path, { ns, json: { active: true, api_url: 'http://prom:9090' } });
    expect(created.status).toBe(200);
    const prometheus = prometheusIntegrationEntity.parse(created.body);
    expect(prometheus).toMatchObject({
      active: true,
      api_url: 'http://prom:9090',
      url: `http://localhost/${ns.fullPath}/prometheus/alerts/notify.json`,
    });
    expect(prometheus.token).toMatch(/^[0-9a-f]{32}$/);
    const updated = await h.call('PUT', path, { ns, json: { active: false } });
    expect(updated.body).toMatchObject({ active: false, api_url: 'http://prom:9090' });
    expect((updated.body as { token?: string }).token).toBeUndefined();
    expect((await h.call('GET', path, { ns })).body).toEqual(updated.body);
  });
});
