import type { Logger } from 'pino';
import { createFlushedCache, sharePeerFlushes, type Bus, type FlushedCache } from '@gl/service-kit';
import type { IntegrationType } from './alerts.models';
import type { Integration, IntegrationsStore } from './integrations.store';
import type { OpsgenieStore } from './opsgenie.store';

/** Where the alerts replicas announce their integration writes to each other's caches. */
const FLUSH_SUBJECT = 'cache.alerts.integrations.flush';

/** What a notify request needs before its token is checked. */
export interface NotifyTarget {
  integration: Integration | null;
  /** An active Opsgenie link-out refuses every other integration (403). */
  opsgenieActive: boolean;
}

export type NotifyLookup = (
  projectId: number,
  kind: IntegrationType,
  identifier: string,
) => Promise<NotifyTarget>;

/**
 * The cache behind every alert post's two reads (the integration, Opsgenie's state): a monitoring tool
 * posts to the same endpoint again and again, and both change only through this service's writes, which
 * flush it here at once and on the other replicas within a message's delivery (peer-flushes.ts). Measured
 * alone (`npm run bench -- --scenario alerts`), they were two of a new alert's nine round trips and two
 * of a repeated alert's three.
 */
export function createIntegrationsCache(ttlMs: number): FlushedCache {
  return createFlushedCache(ttlMs, 10_000);
}

/** Joins the cache to the other replicas' over the bus; what `close` ends. */
export function shareIntegrationsCache(
  cache: FlushedCache,
  bus: Pick<Bus, 'connection' | 'isConnected' | 'onReconnect'>,
  logger: Logger,
): { close(): void } {
  return sharePeerFlushes(cache, bus, FLUSH_SUBJECT, logger);
}

export function createNotifyLookup(
  integrations: Pick<IntegrationsStore, 'findActive'>,
  opsgenie: Pick<OpsgenieStore, 'isActive'>,
  cache: FlushedCache,
): NotifyLookup {
  return (projectId, kind, identifier) =>
    cache.get(`${projectId}:${kind}:${identifier}`, async () => {
      const [integration, opsgenieActive] = await Promise.all([
        integrations.findActive(projectId, kind, identifier),
        opsgenie.isActive(projectId),
      ]);
      return { integration, opsgenieActive };
    });
}
