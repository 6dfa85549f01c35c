import { api, gatewayUrl, stackInfo } from './e2e.helpers';
import { INTERNAL_CONTEXT_HEADER } from '@gl/contracts';

/** The running stack as a user and an operator see it: one door, seven guarded services. */
describe('platform end to end', () => {
  it('When the gateway is asked for readiness, then every service is reported ready', async () => {
    const response = await fetch(`${gatewayUrl()}/-/readiness`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { checks: Record<string, boolean> };
    expect(body.checks).toMatchObject({
      mongo: true,
      nats: true,
      boards: true,
      discussions: true,
      alerts: true,
      notifications: true,
      events: true,
      registry: true,
    });
  });

  it('When any service is called directly without, or with a forged, internal context, then it refuses', async () => {
    const forged = Buffer.from(JSON.stringify({ v: 1, principal: { isAdmin: true } })).toString('base64url');
    for (const [name, url] of Object.entries(stackInfo().serviceUrls)) {
      const missing = await fetch(`${url}/api/v4/groups/1/boards`);
      expect({ name, status: missing.status }).toEqual({ name, status: 401 });
      const fake = await fetch(`${url}/api/v4/groups/1/boards`, {
        headers: { [INTERNAL_CONTEXT_HEADER]: `${forged}.AAAA` },
      });
      expect({ name, status: fake.status }).toEqual({ name, status: 401 });
    }
  });

  it('When a client makes first contact unauthenticated, then it gets JSON, not HTML', async () => {
    const response = await fetch(`${gatewayUrl()}/api/v4/`);
    expect(response.headers.get('content-type')).toBe('application/json');
  });

  it('When API v3 is used, then 410 with the v4 hint', async () => {
    const response = await fetch(`${gatewayUrl()}/api/v3/projects`);
    expect(response.status).toBe(410);
    expect(await response.json()).toEqual({ error: 'API V3 is no longer supported. Use API V4 instead.' });
  });

  it('When each process exposes metrics, then Prometheus text comes back', async () => {
    const text = await (await fetch(`${gatewayUrl()}/metrics`)).text();
    expect(text).toMatch(/^# HELP /m);
    expect(text).toMatch(/service="gateway"/);
  });

  it("When a service is scraped, then its consumers' lag and its outbox backlog are there to watch", async () => {
    const text = await (await fetch(`${stackInfo().serviceUrls.events}/metrics`)).text();
    expect(text).toMatch(/^consumer_pending_messages\{[^}]*durable="events-activity-log"[^}]*\} \d+$/m);
    const discussions = await (await fetch(`${stackInfo().serviceUrls.discussions}/metrics`)).text();
    expect(discussions).toMatch(/^outbox_backlog\{[^}]*\} \d+$/m);
  });

  it('When the root token reads /user, then it is the root administrator with id 1', async () => {
    const response = await api('/user');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: 1, username: 'root', is_admin: true });
  });
});
