import type { IdentityRevision, InternalContext, NamespaceContext, Principal } from '@gl/contracts';
import {
  ROOT,
  createTestRuntime,
  eventually,
  listen,
  signedContextHeader,
  type TestRuntime,
} from '@gl/testing';
import { createEventsApp, type EventsAppOptions } from '../app';

export interface Reply {
  status: number;
  body: unknown;
  headers: Headers;
}

export interface CallOptions {
  as?: Principal | null;
  ns?: NamespaceContext | null;
  tier?: InternalContext['tier'];
  /** The identity revisions the gateway would sign for this caller. */
  revision?: IdentityRevision;
  /** The client address the gateway would sign. */
  clientAddress?: string;
}

export interface EventsHarness {
  runtime: TestRuntime;
  /** The app's base URL (streams are read with a client of their own). */
  url: string;
  /** The signed context header a call with these options sends. */
  contextHeaders(options?: CallOptions): Record<string, string>;
  instance: ReturnType<typeof createEventsApp>;
  call(path: string, options?: CallOptions): Promise<Reply>;
  /** Polls until `check` passes or the deadline expires (bus delivery is asynchronous). */
  eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

export async function startEventsHarness(options: EventsAppOptions = {}): Promise<EventsHarness> {
  const runtime = await createTestRuntime('events');
  // A deleted author's removal order goes at the end of its run (no grace timer outliving the test).
  const instance = createEventsApp(runtime, { authorRemovalGraceMs: 0, ...options });
  await instance.models.activities.init();
  const server = await listen(instance.app);
  const contextHeaders = (options: CallOptions = {}) =>
    signedContextHeader({
      principal: options.as === undefined ? ROOT : options.as,
      namespace: options.ns ?? null,
      tier: options.tier ?? 'ultimate',
      ...(options.revision ? { identityRevision: options.revision } : {}),
      ...(options.clientAddress ? { clientAddress: options.clientAddress } : {}),
    });
  return {
    runtime,
    instance,
    url: server.url,
    contextHeaders,
    async call(path, options = {}) {
      const headers = contextHeaders(options);
      const response = await fetch(`${server.url}/api/v4${path}`, { headers });
      const text = await response.text();
      return {
        status: response.status,
        body: text ? (JSON.parse(text) as unknown) : null,
        headers: response.headers,
      };
    },
    eventually: (read, check, timeoutMs = 15_000) => eventually(read, check, timeoutMs, 100),
    async close() {
      await server.close();
      await runtime.close();
    },
  };
}
