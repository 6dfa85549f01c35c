import type { EventEnvelope, InternalContext, NamespaceContext } from '@gl/contracts';
import {
  namespaceFactory,
  outboxEvents,
  signedContextHeader,
  startServiceHarness,
  toReply,
  type ServiceHarnessBase,
  type Reply,
  type TestServer,
} from '@gl/testing';
import { createAlertsApp, type AlertsConfig } from '../app';

export { DEVELOPER, REPORTER } from '@gl/testing';
export type { Reply } from '@gl/testing';

export const { projectNamespace } = namespaceFactory({
  firstId: 5000 + Math.floor(Math.random() * 1000) * 100,
});

export interface NotifyOptions {
  ns: NamespaceContext;
  token?: string | null;
  /** Raw body text; objects are sent as JSON. */
  body?: unknown;
  tier?: InternalContext['tier'];
  authorization?: string;
}

export interface AlertsHarness extends ServiceHarnessBase<AlertsConfig> {
  instance: ReturnType<typeof createAlertsApp>;
  server: TestServer;
  /** POST to a notify path at the service root, as the gateway forwards it. */
  notify(path: string, options: NotifyOptions, server?: TestServer): Promise<Reply>;
  /** Events stored with alerts (pending or relayed). */
  events(): Promise<EventEnvelope[]>;
}

export async function startAlertsHarness(config: Partial<AlertsConfig> = {}): Promise<AlertsHarness> {
  const harness = await startServiceHarness<ReturnType<typeof createAlertsApp>, AlertsConfig>({
    service: 'alerts',
    config,
    createApp: createAlertsApp,
    caller: { lenientJson: true },
  });
  const { runtime, server } = harness;
  return {
    ...harness,
    async notify(path, options, target = server) {
      const headers: Record<string, string> = {
        ...signedContextHeader({
          principal: null,
          namespace: { ...options.ns, accessLevel: 0 },
          tier: options.tier ?? 'ultimate',
        }),
        'content-type': 'application/json',
      };
      if (options.authorization) headers.authorization = options.authorization;
      else if (options.token) headers.authorization = `Bearer ${options.token}`;
      const body =
        options.body === undefined
          ? '{}'
          : typeof options.body === 'string'
            ? options.body
            : JSON.stringify(options.body);
      return toReply(await fetch(`${target.url}${path}`, { method: 'POST', headers, body }));
    },
    async events() {
      const events = await outboxEvents(runtime.connection, ['alerts']);
      const seen = new Set<string>();
      return events.filter((e) => !seen.has(e.id) && seen.add(e.id));
    },
  };
}
