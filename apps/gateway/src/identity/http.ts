import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { ZodObject, type z } from 'zod';
import { pathsOf, type EndpointContract, type Principal } from '@gl/contracts';
import {
  ParamError,
  UnauthorizedError,
  collectParams,
  expressPath,
  parseParams,
  readBody,
  readPageRequest,
  requestOrigin,
  route,
  type EventOrigin,
  type PageRequest,
  type ParamRule,
  type RouteHandler,
} from '@gl/service-kit';
import { requireAuth, type AuthDeps } from '../auth/auth.middleware';
import { PRODUCER } from './identity.deps';

const bodyReader = readBody();

/**
 * Reads the request body once. Several identity routers are mounted side by side, so a second reader on
 * an already consumed stream would wait forever for its end.
 */
function withBody(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.rawBody !== undefined) {
      next();
      return;
    }
    bodyReader(req, res, next);
  };
}

export function callerOf(req: Request): Principal {
  if (!req.principal) throw new UnauthorizedError();
  return req.principal;
}

/** The gateway has no signed context of its own: its request id (pino-http's) is the correlation id. */
export function originOfRequest(req: Request): EventOrigin {
  const id: unknown = req.id;
  return requestOrigin(
    PRODUCER,
    typeof id === 'string' || typeof id === 'number' ? { requestId: String(id) } : null,
  );
}

export interface ServeOptions {
  /** Anonymous callers reach the handler although the contract needs a token: it answers them itself. */
  anonymous?: boolean;
}

/** Registers one identity endpoint's handler; see `identityRoutes`. */
export type Serve = <E extends EndpointContract>(
  contract: E,
  handler: RouteHandler<E>,
  options?: ServeOptions,
) => void;

/**
 * Registers identity handlers with `route` on their contracts (`IDENTITY_API`), behind what the gateway does
 * before any of its own handlers, as GitLab's `authenticate!` comes before parameters are read: authentication
 * as the contract declares it (`auth`, `readScopes`; the route table applies the same rules to forwarded
 * endpoints) and, for writes, the body reader. The handler finds the caller in `req.principal` (the gateway
 * signs no context for itself, so route()'s `ctx` is not set here).
 */
export function identityRoutes(router: Router, deps: AuthDeps): Serve {
  return (contract, handler, options = {}) => {
    const guards = [
      requireAuth(deps, {
        required: contract.auth === 'token' && !options.anonymous,
        readScopes: contract.readScopes,
      }),
      ...(contract.method === 'GET' ? [] : [withBody()]),
    ];
    const method = contract.method.toLowerCase() as Lowercase<EndpointContract['method']>;
    for (const path of pathsOf(contract)) {
      router[method](expressPath(path), ...guards);
    }
    route(router, contract, handler);
  };
}

/** The merged parameters (query, body, path) validated like Grape would. */
export function paramsOf<S extends z.ZodType>(req: Request, schema: S): z.infer<S> {
  return parseParams(schema, collectParams(req));
}

export function pageOf(req: Request): PageRequest {
  return readPageRequest(req.query);
}

/** The parameter a Grape message is about: `scopes[0] is invalid` → `scopes`, `a, b are missing` → `a`. */
function subjectOf(message: string): string {
  return message.split(/[\s,[]/, 1)[0]!;
}

/**
 * Validates with a schema plus Grape's group rules (`at_least_one_of`, `mutually_exclusive`), reporting
 * every failure in one `{"error": "..."}` body, ordered by where each parameter is declared, as Grape
 * runs its validators in declaration order.
 */
export function paramsWithRules<S extends z.ZodType>(
  req: Request,
  schema: S,
  rules: ParamRule[],
): z.infer<S> {
  const raw = collectParams(req);
  const broken = rules.map((rule) => rule(raw)).filter((m): m is string => m !== null);
  let parsed: z.infer<S>;
  try {
    parsed = parseParams(schema, raw);
  } catch (err) {
    if (!(err instanceof ParamError) || broken.length === 0) throw err;
    const order = schema instanceof ZodObject ? Object.keys(schema.shape) : [];
    const rank = (message: string): number => {
      const index = order.indexOf(subjectOf(message));
      return index < 0 ? order.length : index;
    };
    throw new ParamError([...err.messages, ...broken].sort((a, b) => rank(a) - rank(b)));
  }
  if (broken.length > 0) throw new ParamError(broken);
  return parsed;
}

/**
 * GitLab's `/users/:id` style requirement, for `router.param`: a non-numeric segment does not match the
 * route at all.
 */
export function numericParam(_req: Request, _res: Response, next: NextFunction, value: unknown): void {
  if (/^\d+$/.test(String(value))) next();
  else next('route');
}
