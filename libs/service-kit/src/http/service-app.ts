import express, { type Express, type Router } from 'express';
import type { Logger } from 'pino';
import { randomUUID } from 'node:crypto';
import { REQUEST_ID_HEADER, type EndpointContract } from '@gl/contracts';
import type { BaseServiceConfig } from '../config';
import type { ServiceMetrics } from '../metrics';
import type { ServiceRuntime } from '../runtime';
import { httpMetricsMiddleware } from '../metrics';
import { requestLogging } from '../request-logging';
import { consumersBehindWindow } from '../storage-metrics';
import { readBody, DEFAULT_BODY_LIMIT } from './body';
import { errorHandler, notFoundHandler } from './error-handler';
import { sendJson } from './json';
import { rejectMalformedRequests } from './malformed';
import { parseQueryString } from './nested-params';
import { requireInternalContext } from './request-context';
import { limitRequestLine } from './request-line';
import { routedOperations } from './route';
import { bumpVersionsAfterWrites } from './version-bumps';
import { serviceVersionKey, versionKeyIsRead, type ResourceVersions } from '../bus/resource-versions';

export type ReadinessCheck = () => Promise<Record<string, boolean>>;

export interface ServiceHttpOptions {
  name: string;
  logger: Logger;
  metrics: ServiceMetrics;
  contextSecret: string;
  readiness: ReadinessCheck;
  bodyLimit?: number;
  /** Routers mounted under /api/v4 behind context verification and body parsing. */
  apiRouters: Router[];
  /** Routers mounted at the root behind context verification (alert notify paths live outside /api/v4). */
  rootRouters?: Router[];
  /** Root routers that read the raw request themselves, mounted before body parsing (alert ingestion). */
  rawRouters?: Router[];
  /**
   * The endpoints this service serves: each must have its handler registered with `route`, else the
   * service refuses to start (a contract the gateway forwards here would otherwise answer 404).
   */
  serves?: readonly EndpointContract[];
  /** Bumped after every write this service answers (bus/resource-versions.ts); absent in unit tests. */
  versions?: Pick<ResourceVersions, 'bump'>;
}

/** Start-up check that every endpoint the service owns in the contracts has a handler. */
function requireHandlers(name: string, options: ServiceHttpOptions): void {
  if (!options.serves) return;
  const routed = routedOperations([
    ...options.apiRouters,
    ...(options.rootRouters ?? []),
    ...(options.rawRouters ?? []),
  ]);
  const missing = options.serves.filter((endpoint) => !routed.has(endpoint.operationId));
  if (missing.length > 0) {
    const list = missing.map((e) => `${e.method} ${e.path} (${e.operationId})`).join(', ');
    throw new Error(`${name}: no handler registered for ${list}`);
  }
}

/**
 * The HTTP shell every service shares: request ids, structured access logs, metrics, health and
 * readiness, internal-context verification, GitLab body parsing and error rendering. Services add only
 * their routers.
 */
export function createServiceHttpApp(options: ServiceHttpOptions): Express {
  requireHandlers(options.name, options);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', 'loopback');
  app.set('query parser', (query: string) => parseQueryString(query));

  app.use(
    requestLogging(options.logger, (req, res) => {
      const id = (req.headers[REQUEST_ID_HEADER] as string | undefined) ?? randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    }),
  );
  app.use(httpMetricsMiddleware(options.metrics));

  app.get('/-/health', (_req, res) => sendJson(res, 200, { status: 'ok' }));
  app.get('/-/readiness', async (_req, res) => {
    const checks = await options.readiness().catch(() => ({ readiness: false }));
    const ready = Object.values(checks).every(Boolean);
    // Named, not failed: the API still answers, and out of rotation the consumer would not catch up sooner.
    const behind = await consumersBehindWindow(options.metrics);
    sendJson(res, ready ? 200 : 503, {
      status: ready ? 'ok' : 'failed',
      service: options.name,
      checks,
      ...(behind.length > 0 ? { consumers_behind_window: behind } : {}),
    });
  });
  app.get('/metrics', async (_req, res) => {
    res.setHeader('Content-Type', options.metrics.registry.contentType);
    res.end(await options.metrics.registry.metrics());
  });

  // Everything past the operational endpoints needs the gateway's signature, unknown paths included,
  // so a service reached directly reveals nothing (not even which routes exist).
  app.use(requireInternalContext(options.contextSecret));
  // The gateway refuses these first; a service checks again so nothing malformed reaches a handler.
  app.use(limitRequestLine());
  app.use(rejectMalformedRequests());
  if (options.versions && versionKeyIsRead(serviceVersionKey(options.name))) {
    app.use(bumpVersionsAfterWrites(options.name, options.versions, options.logger));
  }
  for (const router of options.rawRouters ?? []) app.use(router);
  app.use(readBody(options.bodyLimit ?? DEFAULT_BODY_LIMIT));
  for (const router of options.apiRouters) app.use('/api/v4', router);
  for (const router of options.rootRouters ?? []) app.use(router);

  app.use(notFoundHandler);
  app.use(errorHandler(options.logger));
  return app;
}

/** What a service's app states for itself: its routers (and, rarely, a different body limit). */
export type ServiceRouters = Pick<
  ServiceHttpOptions,
  'apiRouters' | 'rootRouters' | 'rawRouters' | 'bodyLimit' | 'serves'
>;

/**
 * The HTTP shell for a service's composition root: logger, metrics, context secret and readiness come
 * from the runtime, so each `app.ts` names only its service and its routers.
 */
export function createRuntimeHttpApp(
  runtime: Pick<ServiceRuntime<BaseServiceConfig>, 'config' | 'logger' | 'metrics' | 'readiness'> &
    Partial<Pick<ServiceRuntime<BaseServiceConfig>, 'versions'>>,
  name: string,
  routers: ServiceRouters,
): Express {
  return createServiceHttpApp({
    name,
    logger: runtime.logger,
    metrics: runtime.metrics,
    contextSecret: runtime.config.INTERNAL_CONTEXT_SECRET,
    readiness: runtime.readiness,
    ...(runtime.versions ? { versions: runtime.versions } : {}),
    ...routers,
  });
}
