import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import {
  VERSIONED_READS,
  type IdentityRevision,
  type InternalContext,
  type NamespaceContext,
  type Principal,
  type Tier,
} from '@gl/contracts';
import { CONTEXT_TTL_MS, NotFoundError, signContext } from '@gl/service-kit';
import type { AuthPolicyOptions } from '../auth/auth.middleware';
import type { NamespaceResolver } from '../namespaces/resolve';
import { ALERT_NOTIFY_PATTERN, ROUTE_TABLE, type RouteSpec, type ServiceName } from './route-table';
import { prepareForwardedHeaders } from './proxy';
import { streamCredentials, type StreamCredentials } from './stream-guard';
import type { VersionedReads } from './versioned-reads';

/**
 * Every identity read forwarding needs comes as a function bound to the stores where the gateway app is
 * assembled (app.ts): a router speaks HTTP and does not hold stores.
 */
export interface ForwardingDeps {
  resolver: NamespaceResolver;
  /** applyAuth: sets `req.principal`, or 401s when the route requires a user. */
  authenticate: (req: Request, options: AuthPolicyOptions) => Promise<Principal | null>;
  /** The identity revisions a forwarded request must reflect (revisions.ts). */
  signedRevision: (principal: Principal | null) => Promise<IdentityRevision>;
  /** Ends a live stream once its credentials stop authenticating (stream-guard.ts). */
  guardStream: (credentials: StreamCredentials, req: Request, res: Response) => void;
  externalUrl: string;
  tier: Tier;
  contextSecret: string;
  proxies: Record<ServiceName, RequestHandler>;
  /** 304s decided from resource versions (versioned-reads.ts); absent: every GET is forwarded. */
  versionedReads?: VersionedReads;
}

/** Query parameters that carry credentials: they stay at the gateway. */
const CREDENTIAL_PARAMS = ['private_token', 'access_token', 'sudo'];

function withoutCredentialParams(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const params = new URLSearchParams(url.slice(q + 1));
  for (const key of CREDENTIAL_PARAMS) params.delete(key);
  const rest = params.toString();
  return rest ? `${url.slice(0, q)}?${rest}` : url.slice(0, q);
}

/** Replaces the addressed `:id` segment (numeric or encoded path) with the numeric id. */
export function rewriteSegment(url: string, segmentIndex: number, id: number): string {
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = q < 0 ? '' : url.slice(q);
  const segments = path.split('/');
  segments[segmentIndex] = String(id);
  return segments.join('/') + query;
}

function segmentIndexOf(spec: RouteSpec): number {
  // "/api/v4" adds two segments in front of the route's own.
  return spec.path.split('/').indexOf(`:${spec.namespace!.param}`) + 2;
}

async function sign(
  deps: ForwardingDeps,
  req: Request,
  namespace: NamespaceContext | null,
  revision?: IdentityRevision,
): Promise<string> {
  const principal = req.principal ?? null;
  const context: InternalContext = {
    v: 1,
    requestId: req.id as string,
    exp: Date.now() + CONTEXT_TTL_MS,
    tier: deps.tier,
    externalUrl: deps.externalUrl,
    principal,
    namespace,
    identityRevision: revision ?? (await deps.signedRevision(principal)),
    ...(req.socket.remoteAddress ? { clientAddress: req.socket.remoteAddress } : {}),
  };
  return signContext(deps.contextSecret, context);
}

function forward(deps: ForwardingDeps, spec: RouteSpec) {
  const proxy = deps.proxies[spec.service];
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (spec.auth === 'none') {
      req.principal = null;
      req.forwardAuthorization = true;
    } else {
      await deps.authenticate(req, { required: spec.auth === 'required', readScopes: spec.readScopes });
    }
    const credentials = spec.stream ? streamCredentials(req) : null;
    let namespace: NamespaceContext | null = null;
    let url = withoutCredentialParams(req.originalUrl);
    if (spec.namespace) {
      // Generic proxy, no handler: the route table names the namespace's raw segment, resolved here.
      const raw = String(req.params[spec.namespace.param]);
      const resolved =
        spec.namespace.kind === 'group'
          ? await deps.resolver.group(raw, req.principal)
          : await deps.resolver.project(raw, req.principal);
      namespace = resolved.context;
      url = rewriteSegment(url, segmentIndexOf(spec), namespace.id);
    }
    req.url = url;
    const revision = await deps.signedRevision(req.principal ?? null);
    if (namespace && deps.versionedReads && spec.method === 'GET' && VERSIONED_READS.has(spec.operationId)) {
      const decision = await deps.versionedReads.decide({
        service: spec.service,
        namespace,
        url,
        principal: req.principal ?? null,
        tier: deps.tier,
        revision,
        ifNoneMatch: req.headers['if-none-match'],
      });
      if (decision?.notModified) {
        res.setHeader('ETag', decision.tag);
        res.status(304).end();
        return;
      }
      if (decision) req.versionTag = decision.tag;
    }
    req.forwardContext = await sign(deps, req, namespace, revision);
    if (credentials) deps.guardStream(credentials, req, res);
    prepareForwardedHeaders(req);
    proxy(req, res, next);
  };
}

/**
 * Which routes a request can match, keyed by its first segment below /api/v4 and its third (the one after
 * `/groups/:id` or `/projects/:id`): `projects/issues`. A route of that shape can only match requests with
 * its key; any other route (`/snippets/public`, `/events`) is kept with every key of its first segment.
 * Routes match case-insensitively and with or without a trailing slash (Express's defaults), so keys are
 * lower case and an empty last segment is none.
 */
const KEYED_ROUTE = /^\/([\w.-]+)\/:\w+(?:\/([\w.-]+)(?:\/.*)?)?$/;
const API_PREFIX = '/api/v4/';

function requestKey(path: string): { first: string; key: string } | null {
  const lower = path.toLowerCase();
  if (!lower.startsWith(API_PREFIX)) return null;
  const segments = lower.slice(API_PREFIX.length).split('/');
  const first = segments[0]!;
  return { first, key: `${first}/${segments[2] ?? ''}` };
}

/**
 * The route table (derived from the contracts) turned into Express routes under /api/v4. With 182 routes in
 * one router, Express tried each pattern in turn, about 140 for a group's boards; here a request goes to a
 * router holding only the routes its key can match, in the table's order, so the first match is the same.
 */
export function createForwardingRouter(deps: ForwardingDeps): RequestHandler {
  const routes = ROUTE_TABLE.map((spec) => {
    const keyed = KEYED_ROUTE.exec(spec.path.toLowerCase());
    const first = (keyed?.[1] ?? spec.path.split('/')[1]!).toLowerCase();
    return { spec, first, key: keyed ? `${first}/${keyed[2] ?? ''}` : null, handler: forward(deps, spec) };
  });
  const routerOf = (included: typeof routes): Router => {
    const router = Router();
    for (const { spec, handler } of included) {
      const method = spec.method.toLowerCase() as Lowercase<RouteSpec['method']>;
      router[method](`/api/v4${spec.path}`, handler);
    }
    return router;
  };
  const byKey = new Map<string, Router>();
  const byFirst = new Map<string, Router>();
  for (const key of new Set(routes.map((r) => r.key).filter((k) => k !== null))) {
    const first = key.slice(0, key.indexOf('/'));
    byKey.set(key, routerOf(routes.filter((r) => r.key === key || (r.key === null && r.first === first))));
  }
  for (const first of new Set(routes.map((r) => r.first))) {
    byFirst.set(first, routerOf(routes.filter((r) => r.key === null && r.first === first)));
  }
  return (req, res, next) => {
    const request = requestKey(req.path);
    const router = request ? (byKey.get(request.key) ?? byFirst.get(request.first)) : undefined;
    if (router) router(req, res, next);
    else next();
  };
}

/**
 * Alert notify endpoints: the project is looked up by full path without user authentication (the
 * integration token is checked by the alerts service), as GitLab's notifications controller does.
 */
export function createAlertNotifyForwarder(deps: ForwardingDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const match = req.method === 'POST' ? ALERT_NOTIFY_PATTERN.exec(req.path) : null;
    if (!match || req.path.startsWith('/api/')) {
      next();
      return;
    }
    const project = await deps.resolver.findProject(decodeURIComponent(match[1]!));
    if (!project) throw new NotFoundError();
    req.principal = null;
    req.forwardAuthorization = true;
    req.forwardContext = await sign(deps, req, await deps.resolver.projectContext(project, null));
    prepareForwardedHeaders(req);
    deps.proxies.alerts(req, res, next);
  };
}
