import { errorTrackingSettingsEntity, type NamespaceContext } from '@gl/contracts';
import { projectNamespace, startAlertsHarness } from './testing/alerts.harness';
import { DEVELOPER, MAINTAINER, useHarness } from '@gl/testing';

describe('Error-tracking settings', () => {
  const h = useHarness(startAlertsHarness);

  const path = (ns: NamespaceContext) => `/projects/${ns.id}/error_tracking/settings`;
  const NOT_FOUND = { message: '404 Error Tracking Setting Not Found' };

  it('When no settings exist, then GET and PATCH answer 404 Error Tracking Setting Not Found', async () => {
    const ns = projectNamespace();
    const get = await h.call('GET', path(ns), { ns });
    expect(get.status).toBe(404);
    expect(get.body).toEqual(NOT_FOUND);
    const patch = await h.call('PATCH', path(ns), { ns, json: { active: true } });
    expect(patch.status).toBe(404);
    expect(patch.body).toEqual(NOT_FOUND);
  });

  it('When PATCH lacks a valid active, then Grape 400s: missing, empty, invalid', async () => {
    const ns = projectNamespace();
    const patch = (json: unknown) => h.call('PATCH', path(ns), { ns, json });
    expect((await patch({})).body).toEqual({ error: 'active is missing' });
    expect((await patch({ active: '' })).body).toEqual({ error: 'active is empty' });
    const invalid = await patch({ active: 'maybe' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ error: 'active is invalid' });
  });

  it('When PUT creates settings, then GET shows them, the token is never shown, and PATCH toggles active', async () => {
    const ns = projectNamespace();
    const put = await h.call('PUT', path(ns), {
      ns,
      as: MAINTAINER,
      json: {
        active: true,
        integrated: false,
        api_url: 'https://sentry.example.com/api/0/projects/org/proj/',
        project_name: 'proj',
        token: 'secret-token',
      },
    });
    expect(put.status).toBe(200);
    expect(put.text).not.toContain('secret-token');
    const expected = {
      active: true,
      project_name: 'proj',
      tracker_external_url: 'https://sentry.example.com/org/proj/',
      api_url: 'https://sentry.example.com/api/0/projects/org/proj/',
      integrated: false,
    };
    expect(errorTrackingSettingsEntity.parse(put.body)).toEqual(expected);
    expect((await h.call('GET', path(ns), { ns })).body).toEqual(expected);
    const off = await h.call('PATCH', path(ns), { ns, json: { active: false } });
    expect(off.body).toEqual({ ...expected, active: false });
    const on = await h.call('PATCH', `${path(ns)}/`, { ns, json: { active: 'true', integrated: true } });
    expect(on.body).toEqual({ ...expected, integrated: true });
  });

  it('When PUT sends only active and integrated, then the settings are created with empty fields', async () => {
    const ns = projectNamespace();
    const reply = await h.call('PUT', path(ns), { ns, json: { active: true, integrated: true } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      active: true,
      project_name: null,
      tracker_external_url: null,
      api_url: null,
      integrated: true,
    });
  });

  it('When PUT lacks integrated, then 400 integrated is missing', async () => {
    const ns = projectNamespace();
    const reply = await h.call('PUT', path(ns), { ns, json: { active: true } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'integrated is missing' });
  });

  it.each([
    ['ftp://sentry.example.com/', 'is blocked: Only allowed schemes are http, https'],
    ['https://user:pass@sentry.example.com/', 'is blocked: Username and password are not allowed in the URL'],
    ['http://127.0.0.1:9000/', 'is blocked: Requests to the local network are not allowed'],
    ['http://localhost/', 'is blocked: Requests to the local network are not allowed'],
    ['http://10.1.2.3/', 'is blocked: Requests to the local network are not allowed'],
    ['http://192.168.0.1/', 'is blocked: Requests to the local network are not allowed'],
    ['http://169.254.169.254/latest/meta-data', 'is blocked: Requests to the local network are not allowed'],
    ['http://[::1]/', 'is blocked: Requests to the local network are not allowed'],
    ['http://[fe80::1]/', 'is blocked: Requests to the local network are not allowed'],
    ['not a url', 'is blocked: URI is invalid'],
  ])('When PUT sets api_url %s, then 400 with the SSRF reason', async (apiUrl, reason) => {
    const ns = projectNamespace();
    const reply = await h.call('PUT', path(ns), {
      ns,
      json: { active: true, integrated: false, api_url: apiUrl },
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ message: { api_url: [reason] } });
    expect((await h.call('GET', path(ns), { ns })).status).toBe(404);
  });

  it('When PUT sets an api_url over 255 characters, then 400 with the model length message and nothing stored', async () => {
    const ns = projectNamespace();
    const apiUrl = `https://sentry.example.com/api/0/projects/org/${'p'.repeat(220)}/`;
    const reply = await h.call('PUT', path(ns), {
      ns,
      json: { active: true, integrated: false, api_url: apiUrl },
    });
    expect(reply).toMatchObject({
      status: 400,
      body: { message: { api_url: ['is too long (maximum is 255 characters)'] } },
    });
    expect((await h.call('GET', path(ns), { ns })).status).toBe(404);
  });

  it('When a developer calls any settings endpoint, then 403', async () => {
    const ns = projectNamespace();
    expect((await h.call('GET', path(ns), { ns, as: DEVELOPER })).status).toBe(403);
    expect((await h.call('PATCH', path(ns), { ns, as: DEVELOPER, json: { active: true } })).status).toBe(403);
    expect(
      (await h.call('PUT', path(ns), { ns, as: DEVELOPER, json: { active: true, integrated: true } })).status,
    ).toBe(403);
  });
});

describe('Error-tracking settings with local requests allowed', () => {
  const h = useHarness(() => startAlertsHarness({ ALERTS_ALLOW_LOCAL_REQUESTS: true }));

  it('When the instance allows local requests, then a loopback api_url is accepted', async () => {
    const ns = projectNamespace();
    const reply = await h.call('PUT', `/projects/${ns.id}/error_tracking/settings`, {
      ns,
      json: { active: true, integrated: false, api_url: 'http://127.0.0.1:9000/api/0/projects/o/p/' },
    });
    expect(reply.status).toBe(200);
  });
});
