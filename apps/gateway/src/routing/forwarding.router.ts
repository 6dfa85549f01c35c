import { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { InternalContext, NamespaceContext, Tier } from '@gl/contracts';
import { CONTEXT_TTL_MS, NotFoundError, signContext } from '@gl/service-kit';
import type { IdentityStores } from '../identity/identity.stores';
import { applyAuth } from '../auth/auth.middleware';
import { resolveGroup, resolveProject, findProject, projectContext } from '../namespaces/resolve';
import { signedRevision } from '../identity/revisions';
import { ALERT_NOTIFY_PATTERN, ROUTE_TABLE, type RouteSpec, type ServiceName } from './route-table';
import { guardStream, streamCredentials } from './stream-guard';

export interface ForwardingDeps {
  stores: IdentityStores;
  externalUrl: string;
  tier: Tier;
  contextSecret: string;
  proxies: Record<ServiceName, RequestHandler>;
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

async function sign(deps: ForwardingDeps, req: Request, namespace: NamespaceContext | null): Promise<string> {
  const principal = req.principal ?? null;
  const context: InternalContext = {
    v: 1,
    requestId: req.id as string,
    exp: Date.now() + CONTEXT_TTL_MS,
    tier: deps.tier,
    externalUrl: deps.externalUrl,
    principal,
    namespace,
    identityRevision: await signedRevision(deps.stores, principal),
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
      await applyAuth(req, deps, { required: spec.auth === 'required', readScopes: spec.readScopes });
    }
    const credentials = spec.stream ? streamCredentials(req) : null;
    let namespace: NamespaceContext | null = null;
    let url = withoutCredentialParams(req.originalUrl);
    if (spec.namespace) {
      const raw = String(req.params[spec.namespace.param]);
      const resolved =
        spec.namespace.kind === 'group'
          ? await resolveGroup(deps.stores, raw, req.principal, deps.externalUrl)
          : await resolveProject(deps.stores, raw, req.principal, deps.externalUrl);
      namespace = resolved.context;
      url = rewriteSegment(url, segmentIndexOf(spec), namespace.id);
    }
    req.url = url;
    req.forwardContext = await sign(deps, req, namespace);
    if (credentials) guardStream(credentials, req, res, deps.stores.users, deps.externalUrl);
    proxy(req, res, next);
  };
}

/** The route table (derived from the contracts) turned into Express routes under /api/v4. */
export function createForwardingRouter(deps: ForwardingDeps): Router {
  const router = Router();
  for (const spec of ROUTE_TABLE) {
    const method = spec.method.toLowerCase() as Lowercase<RouteSpec['method']>;
    router[method](`/api/v4${spec.path}`, forward(deps, spec));
  }
  return router;
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
    const project = await findProject(deps.stores, decodeURIComponent(match[1]!));
    if (!project) throw new NotFoundError();
    req.principal = null;
    req.forwardAuthorization = true;
    req.forwardContext = await sign(
      deps,
      req,
      await projectContext(deps.stores, project, null, deps.externalUrl),
    );
    deps.proxies.alerts(req, res, next);
  };
}
