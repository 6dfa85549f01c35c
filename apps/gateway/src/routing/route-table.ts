import { ENDPOINTS, pathsOf, type EndpointContract, type ServiceName } from '@gl/contracts';
import { expressPath } from '@gl/service-kit';

export { SERVICES, type ServiceName } from '@gl/contracts';

/**
 * How the gateway authenticates before forwarding:
 * - `required`: a valid token is needed (401 without), GitLab's `authenticate!` (and `authenticate_non_get!`
 *   for writes) before anything is looked up;
 * - `optional`: anonymous callers go through and the service decides (public reads; endpoints that look
 *   the project up first); a bad token is still a 401;
 * - `none`: the service authenticates the caller itself (alert integration tokens, registry secret), so
 *   the gateway must not read the Authorization header as a personal access token.
 */
export type AuthPolicy = 'required' | 'optional' | 'none';

export interface RouteSpec {
  method: EndpointContract['method'];
  operationId: string;
  /** Express 5 path below /api/v4. */
  path: string;
  service: ServiceName;
  auth: AuthPolicy;
  /** Which path parameter names a group or project to resolve before forwarding. */
  namespace?: { kind: 'group' | 'project'; param: string };
  /** Scopes accepted for reads besides api/read_api (GitLab's allow_access_with_scope). */
  readScopes?: readonly string[];
  /** The answer is a live event stream: its credentials are checked again while it is open. */
  stream?: boolean;
}

function authPolicy(endpoint: EndpointContract): AuthPolicy {
  if (endpoint.auth === 'integration-token' || endpoint.auth === 'registry-secret') return 'none';
  return endpoint.auth === 'token' && !endpoint.lookupFirst ? 'required' : 'optional';
}

/** Paths below `/groups/{id}` and `/projects/{id}` address a namespace the gateway resolves first. */
function namespaceOf(template: string): RouteSpec['namespace'] {
  const match = /^\/(groups|projects)\/\{(\w+)\}/.exec(template);
  if (!match) return undefined;
  return { kind: match[1] === 'groups' ? 'group' : 'project', param: match[2]! };
}

/** One endpoint's routes: its path, and its `alsoAt` path where it has one. */
function routesOf(endpoint: EndpointContract & { service: ServiceName }): RouteSpec[] {
  return pathsOf(endpoint).map((template) => ({
    method: endpoint.method,
    operationId: endpoint.operationId,
    path: expressPath(template),
    service: endpoint.service,
    auth: authPolicy(endpoint),
    namespace: namespaceOf(template),
    readScopes: endpoint.readScopes,
    ...(endpoint.response.contentType === 'text/event-stream' ? { stream: true } : {}),
  }));
}

const isForwarded = (endpoint: EndpointContract): endpoint is EndpointContract & { service: ServiceName } =>
  endpoint.service !== 'gateway' && !endpoint.outsideApi;

/**
 * Every /api/v4 endpoint a service serves, derived from the contracts: the method and path, the service
 * that owns it, how the gateway authenticates, and which namespace it resolves. A path with no contract is
 * the gateway's 404.
 */
export const ROUTE_TABLE: RouteSpec[] = ENDPOINTS.filter(isForwarded).flatMap(routesOf);

/**
 * Alert ingestion lives outside /api/v4, under the project's own path (which may contain subgroups):
 * `/{namespace}/{project}/alerts/notify[/{name}/{endpoint_identifier}][.json]` and
 * `/{namespace}/{project}/prometheus/alerts/notify.json`. The integration token is the only credential.
 */
export const ALERT_NOTIFY_PATTERN =
  /^\/(.+?)\/(alerts\/notify(?:\/[^/]+\/[^/]+?)?(?:\.json)?|prometheus\/alerts\/notify\.json)$/;
