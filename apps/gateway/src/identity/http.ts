import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ZodObject, type z } from 'zod';
import type { EventActor, Principal } from '@gl/contracts';
import {
  ParamError,
  UnauthorizedError,
  collectParams,
  parseParams,
  readBody,
  readPageRequest,
  type EventOrigin,
  type PageRequest,
  type ParamRule,
} from '@gl/service-kit';
import { requireAuth, type AuthDeps } from '../auth/auth.middleware';
import { originOf } from './identity.deps';

const bodyReader = readBody();

/**
 * Reads the request body once. Several identity routers are mounted side by side, so a second reader on
 * an already consumed stream would wait forever for its end.
 */
export function withBody(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.rawBody !== undefined) {
      next();
      return;
    }
    bodyReader(req, res, next);
  };
}

/** GitLab's `authenticate!`: a token is required; `read_user` tokens also work where GitLab allows them. */
export function signedIn(deps: AuthDeps, readScopes?: readonly string[]): RequestHandler {
  return requireAuth(deps, { required: true, readScopes });
}

/** Anonymous callers allowed (public resources); a bad token is still a 401. */
export function maybeSignedIn(deps: AuthDeps, readScopes?: readonly string[]): RequestHandler {
  return requireAuth(deps, { required: false, readScopes });
}

export function callerOf(req: Request): Principal {
  if (!req.principal) throw new UnauthorizedError();
  return req.principal;
}

export function actorOfPrincipal(principal: Principal | null): EventActor {
  return principal ? { id: principal.id, username: principal.username, name: principal.name } : null;
}

export function originOfRequest(req: Request): EventOrigin {
  const id: unknown = req.id;
  return originOf(typeof id === 'string' || typeof id === 'number' ? String(id) : null);
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

/** GitLab's `/users/:id` style requirement: a non-numeric segment does not match the route at all. */
export function numericParam(name: string): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    if (/^\d+$/.test(String(req.params[name]))) next();
    else next('route');
  };
}
