import { z } from 'zod';

/** The processes that serve /api/v4: the gateway itself (identity) and the services behind it. */
export const SERVICES = [
  'boards',
  'discussions',
  'alerts',
  'notifications',
  'events',
  'registry',
  'hooks',
] as const;
export type ServiceName = (typeof SERVICES)[number];
export type EndpointOwner = ServiceName | 'gateway';

/**
 * One HTTP endpoint, declared once: the OpenAPI document, the gateway's route table and the owning
 * service's handler registration all read it. Parameters follow GitLab: they may come by path, query or
 * body, so `params` describes them all; the document lists path parameters from the path template, and
 * the rest as query (GET/DELETE) or request body (POST/PUT/PATCH).
 */
export interface EndpointContract {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI path template below /api/v4 (or absolute when `outsideApi`), e.g. `/groups/{id}/boards`. */
  path: string;
  /** The same endpoint at a second path GitLab also answers (served, not listed in the document). */
  alsoAt?: string;
  /** Who serves it; `defineEndpoints` sets it for a whole catalogue. */
  service: EndpointOwner;
  operationId: string;
  summary: string;
  tags: readonly string[];
  /**
   * Who authenticates: a personal access token (required or optional), or the service itself. The
   * gateway turns a required token into a 401 before anything is looked up (GitLab's `authenticate!`,
   * and `authenticate_non_get!` for writes next to optional-token reads) unless `lookupFirst`.
   */
  auth: 'token' | 'optional-token' | 'integration-token' | 'registry-secret';
  /**
   * GitLab looks the project up before it authenticates (the API class's `before` block calls
   * `user_project`), so an anonymous call on an invisible project is a 404, not a 401: the gateway lets
   * anonymous callers through and the service answers.
   */
  lookupFirst?: boolean;
  /** Scopes accepted for reads besides api/read_api (GitLab's `allow_access_with_scope`). */
  readScopes?: readonly string[];
  params?: z.ZodObject;
  response: EndpointResponse & { paginated?: boolean };
  /** Other successful answers a parameter asks for (a bulk delete's `dry_run=true` → 200 with its plan). */
  otherResponses?: readonly EndpointResponse[];
  errors?: readonly number[];
  deprecated?: boolean;
  /** Higher-tier feature (GitLab Premium/Ultimate). */
  higherTier?: boolean;
  /** Served outside /api/v4 (alert notify endpoints). */
  outsideApi?: boolean;
}

/** A successful answer: its status, what it means, its body (JSON unless `contentType` says otherwise). */
export interface EndpointResponse {
  status: number;
  description: string;
  schema?: z.ZodType;
  /** `text/event-stream` for streams; default `application/json`. */
  contentType?: string;
}

/** The path templates an endpoint answers at: its own, and its `alsoAt` path where it has one. */
export function pathsOf(endpoint: Pick<EndpointContract, 'path' | 'alsoAt'>): string[] {
  return endpoint.alsoAt ? [endpoint.path, endpoint.alsoAt] : [endpoint.path];
}

/** The parameter names of a path template: `/groups/{id}/boards/{board_id}` → `id`, `board_id`. */
export function pathParamNames(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/**
 * The part of an endpoint's params its path carries (the path parameters it declares, at either of its
 * paths), for handlers that read the path before the rest, as GitLab looks a record up before it reads the
 * body. Built from the shape, so the object's own refinements (which speak of other parameters) stay out.
 */
export function pathParamsSchema(endpoint: EndpointContract): z.ZodObject {
  const shape = (endpoint.params?.shape ?? {}) as Record<string, z.ZodType>;
  const names = new Set(pathsOf(endpoint).flatMap(pathParamNames));
  return z.object(Object.fromEntries(Object.entries(shape).filter(([name]) => names.has(name))));
}

/** An endpoint as a catalogue declares it: the catalogue supplies the owner. */
export type EndpointDeclaration = Omit<EndpointContract, 'service'>;

type Owned<T, S extends EndpointOwner> = { [K in keyof T]: T[K] & { service: S } };

/**
 * A service's catalogue of endpoints. The element types are kept (literal operation ids, each endpoint's
 * own params schema), so a handler registered for an endpoint receives its parsed params typed.
 */
export function defineEndpoints<
  const S extends EndpointOwner,
  const T extends readonly EndpointDeclaration[],
>(service: S, endpoints: T): Owned<T, S> {
  return endpoints.map((endpoint) => ({ ...endpoint, service })) as unknown as Owned<T, S>;
}

/** A catalogue addressed by operation id: `BOARDS.listGroupLabels`. */
export type EndpointsById<T extends readonly EndpointContract[]> = {
  [E in T[number] as E['operationId']]: E;
};

export function byOperationId<const T extends readonly EndpointContract[]>(endpoints: T): EndpointsById<T> {
  return Object.fromEntries(
    endpoints.map((endpoint) => [endpoint.operationId, endpoint]),
  ) as EndpointsById<T>;
}

/** The params an endpoint's handler receives, parsed by its contract's schema. */
export type EndpointParams<E extends EndpointContract> = E['params'] extends z.ZodType
  ? z.infer<E['params']>
  : Record<string, never>;

/** The names in a literal path template: `'/groups/{id}/boards/{board_id}'` → `'id' | 'board_id'`. */
type PathParamName<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParamName<Rest>
  : never;

/** The path parameters an endpoint's contract declares, parsed (`pathParamsSchema`). */
export type EndpointPathParams<E extends EndpointContract> = E['params'] extends z.ZodType
  ? Pick<z.infer<E['params']>, PathParamName<E['path']> & keyof z.infer<E['params']>>
  : Record<string, never>;
