import { httpIntegrationEntity, type NamespaceContext } from '@gl/contracts';
import { eventually, listen, useHarness, type TestServer } from '@gl/testing';
import { createAlertsApp } from './app';
import { projectNamespace, startAlertsHarness } from './testing/alerts.harness';
import {
  createHttpIntegration,
  deactivateHttpIntegration,
  httpIntegrationsPath,
} from './testing/integrations.fixture';

/**
 * The notify endpoints read integrations through a cache (notify-lookup.ts): every write to them must
 * count on the next alert post, on the replica that wrote at once and on the others once announced.
 */
describe('Alert ingestion reads integrations through a cache', () => {
  const h = useHarness(startAlertsHarness);

  async function resetToken(ns: NamespaceContext, id: number): Promise<string> {
    const reply = await h.call('POST', `${httpIntegrationsPath(ns.id)}/${id}/reset_token`, { ns });
    return httpIntegrationEntity.parse(reply.body).token!;
  }

  const post = (ns: NamespaceContext, path: string, token: string, server?: TestServer) =>
    h.notify(path, { ns, token, body: { title: 'Cached' } }, server).then((reply) => reply.status);

  it('When the token is reset or the integration deactivated, then the next post on the same replica sees it', async () => {
    const ns = projectNamespace();
    const created = await createHttpIntegration(h, ns);
    expect(await post(ns, created.path, created.token)).toBe(200);
    expect(await post(ns, created.path, created.token)).toBe(200);

    const token = await resetToken(ns, created.id);
    expect(await post(ns, created.path, created.token)).toBe(401);
    expect(await post(ns, created.path, token)).toBe(200);

    await deactivateHttpIntegration(h, ns, created.id);
    expect(await post(ns, created.path, token)).toBe(403);
  });

  it('When the Opsgenie link-out is activated after posts, then the next post is refused with 403', async () => {
    const ns = projectNamespace();
    const created = await createHttpIntegration(h, ns);
    expect(await post(ns, created.path, created.token)).toBe(200);
    await deactivateHttpIntegration(h, ns, created.id);
    await h.call('PUT', `/projects/${ns.id}/alert_management/opsgenie`, {
      ns,
      json: { active: true, api_url: 'https://x.app.opsgenie.com' },
    });
    expect(await post(ns, created.path, created.token)).toBe(403);
  });

  describe('two replicas on one bus', () => {
    // A second replica on the same database and bus; both announce their writes, as runService starts them.
    const replicas = useHarness(async () => {
      const second = createAlertsApp(h.runtime);
      const server = await listen(second.app);
      h.instance.start?.();
      second.start?.();
      return {
        second: server,
        async close() {
          await second.stop?.();
          await h.instance.stop?.();
          await server.close();
        },
      };
    });

    it('When one replica resets the token, then the other refuses the old one once the write is announced', async () => {
      const ns = projectNamespace();
      const created = await createHttpIntegration(h, ns);
      expect(await post(ns, created.path, created.token, replicas.second)).toBe(200);
      const token = await resetToken(ns, created.id);
      await eventually(
        () => post(ns, created.path, created.token, replicas.second),
        (status) => status === 401,
        5_000,
        10,
      );
      expect(await post(ns, created.path, token, replicas.second)).toBe(200);
    });
  });
});
