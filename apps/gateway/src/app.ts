import express, { type Express, type Router } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { ENDPOINTS, IDENTITY_ENDPOINTS, REQUEST_ID_HEADER, type Tier } from '@gl/contracts';
import {
  buildOpenApiDocument,
  errorHandler,
  httpMetricsMiddleware,
  limitRequestBody,
  limitRequestLine,
  parseQueryString,
  rejectMalformedRequests,
  requestLogging,
  bumpVersionsAfterWrites,
  routedOperations,
  sendJson,
  type ReadinessCheck,
  type ResourceVersions,
  type ServiceMetrics,
} from '@gl/service-kit';
import { applyAuth } from './auth/auth.middleware';
import type { IdentityStores } from './identity/identity.stores';
import { signedRevision } from './identity/revisions';
import { createNamespaceResolver } from './namespaces/resolve';
import {
  createAlertNotifyForwarder,
  createForwardingRouter,
  type ForwardingDeps,
} from './routing/forwarding.router';
import type { ServiceName } from './routing/route-table';
import { guardStream } from './routing/stream-guard';
import { createWriteFence } from './write-fence/write-fence';
import { createWriteFenceRouter } from './write-fence/write-fence.router';
import type { RequestHandler } from 'express';
import { identifyCaller } from './auth/authenticate';
import { throttleMiddleware } from './throttle/throttle.middleware';
import type { VersionedReads } from './routing/versioned-reads';
import type { ThrottleSettings } from './throttle/throttle.settings';
import type { ThrottleStore } from './throttle/throttle.store';

export interface GatewayDeps {
  logger: Logger;
  metrics: ServiceMetrics;
  stores: IdentityStores;
  externalUrl: string;
  tier: Tier;
  contextSecret: string;
  proxies: Record<ServiceName, RequestHandler>;
  readiness: ReadinessCheck;
  /** The identity catalogue's own routers (served here, not forwarded), mounted under /api/v4. */
  identityRouters: Router[];
  /** GitLab's API rate limits and the counts every replica shares (throttle/); absent: no limits. */
  throttle?: { settings: ThrottleSettings; store: ThrottleStore };
  /**
   * Resource versions: polled reads answered with 304 here (routing/versioned-reads.ts), and the identity
   * catalogue's own writes bumping `identity.all`. Absent: every GET is forwarded.
   */
  versions?: { reads: VersionedReads; bumps: Pick<ResourceVersions, 'bump'> };
}

/**
 * Start-up check that every identity endpoint has its handler registered with route(): the route table
 * forwards only other services' endpoints, so an identity contract without one would answer 404.
 */
function requireIdentityHandlers(routers: Router[]): void {
  const routed = routedOperations(routers);
  const missing = IDENTITY_ENDPOINTS.filter((endpoint) => !routed.has(endpoint.operationId));
  if (missing.length > 0) {
    const list = missing.map((e) => `${e.method} ${e.path} (${e.operationId})`).join(', ');
    throw new Error(`gateway: no handler registered for ${list}`);
  }
}

/** The forwarding router's identity reads, bound to the stores here so that the router holds none. */
function forwardingDeps(deps: GatewayDeps): ForwardingDeps {
  const { stores, externalUrl } = deps;
  return {
    resolver: createNamespaceResolver(stores, externalUrl),
    authenticate: (req, options) => applyAuth(req, { stores, externalUrl }, options),
    signedRevision: (principal) => signedRevision(stores, principal),
    guardStream: (credentials, req, res) => guardStream(credentials, req, res, stores.users, externalUrl),
    externalUrl,
    tier: deps.tier,
    contextSecret: deps.contextSecret,
    proxies: deps.proxies,
    ...(deps.versions ? { versionedReads: deps.versions.reads } : {}),
  };
}

/**
 * The only door: authenticates, resolves the addressed namespace, signs the internal context and forwards
 * to the owning service; serves the identity catalogue itself. Pure: builds, opens nothing.
 */
export function createGatewayApp(deps: GatewayDeps): Express {
  requireIdentityHandlers(deps.identityRouters);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', (query: string) => parseQueryString(query));

  app.use(
    requestLogging(deps.logger, (req, res) => {
      const given = req.headers[REQUEST_ID_HEADER];
      const id = typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    }),
  );
  app.use(httpMetricsMiddleware(deps.metrics));
  app.use((_req, res, next) => {
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  });

  // The edge refuses what GitLab's front refuses before any routing: request lines nginx would not take
  // (414) and malformed strings (HandleMalformedStrings, 400), which Express could not even decode.
  app.use(limitRequestLine());
  app.use(rejectMalformedRequests());
  app.use(limitRequestBody());

  app.get('/-/health', (_req, res) => sendJson(res, 200, { status: 'ok' }));
  app.get('/-/readiness', async (_req, res) => {
    const checks = await deps.readiness();
    const ready = Object.values(checks).every(Boolean);
    sendJson(res, ready ? 200 : 503, { status: ready ? 'ok' : 'failed', checks });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', deps.metrics.registry.contentType);
    res.end(await deps.metrics.registry.metrics());
  });

  let openApi: unknown;
  app.get('/-/openapi.json', (_req, res) => {
    openApi ??= buildOpenApiDocument(ENDPOINTS, {
      title: 'GitLab-compatible collaboration API v4',
      version: '4',
    });
    sendJson(res, 200, openApi);
  });

  // Before anything that writes: a backup's fence holds every write that comes after it (write-fence.ts).
  const fence = createWriteFence({
    held: (id, waitedMs) => deps.logger.info({ fence: id, waitedMs }, 'write fence raised: writes wait'),
    lifted: (id, heldMs, heldRequests, why) =>
      deps.logger.info({ fence: id, heldMs, heldRequests, why }, 'write fence lifted: writes go on'),
  });
  app.use(createWriteFenceRouter(fence, deps.stores.users, deps.externalUrl));
  app.use(fence.middleware);

  if (deps.throttle) {
    const { settings, store } = deps.throttle;
    app.use(throttleMiddleware(settings, store, (req) => identifyCaller(deps.stores.users, req)));
  }

  app.all('/api/v3{/*rest}', (_req, res) =>
    sendJson(res, 410, { error: 'API V3 is no longer supported. Use API V4 instead.' }),
  );

  const forwarding = forwardingDeps(deps);
  app.use(createAlertNotifyForwarder(forwarding));
  app.use(createForwardingRouter(forwarding));
  // The catalogue's writes change how every service's answers are rendered (names, paths) and who sees them.
  if (deps.versions)
    app.use('/api/v4', bumpVersionsAfterWrites('identity', deps.versions.bumps, deps.logger));
  for (const router of deps.identityRouters) app.use('/api/v4', router);

  app.use((_req, res) => sendJson(res, 404, { error: '404 Not Found' }));
  app.use(errorHandler(deps.logger));
  return app;
}
