import type { NextFunction, Request, Response } from 'express';
import {
  INTERNAL_CONTEXT_HEADER,
  type InternalContext,
  type NamespaceContext,
  type Principal,
} from '@gl/contracts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../errors';
import { sendJson } from './json';
import { verifyContext } from './internal-context';

declare module 'express-serve-static-core' {
  interface Request {
    /** The verified context signed by the gateway; present on every /api route of a service. */
    ctx: InternalContext;
  }
}

/**
 * Services are only reachable through the gateway: a request without a valid, fresh signature is refused
 * whatever it claims, so a service port exposed by mistake grants nothing.
 */
export function requireInternalContext(secret: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers[INTERNAL_CONTEXT_HEADER];
    const result = verifyContext(secret, Array.isArray(header) ? header[0] : header);
    if (!result.ok) {
      req.log?.warn({ reason: result.reason }, 'refused request without valid internal context');
      sendJson(res, 401, { message: '401 Unauthorized' });
      return;
    }
    req.ctx = result.context;
    next();
  };
}

export function requireUser(ctx: InternalContext): Principal {
  if (!ctx.principal) throw new UnauthorizedError();
  return ctx.principal;
}

export function requireNamespace(ctx: InternalContext, kind: 'group' | 'project'): NamespaceContext {
  if (!ctx.namespace || ctx.namespace.kind !== kind)
    throw new NotFoundError(kind === 'group' ? 'Group' : 'Project');
  return ctx.namespace;
}

/** Effective access: admins act as owners everywhere, as in GitLab. */
export function accessLevelOf(ctx: InternalContext): number {
  if (ctx.principal?.isAdmin) return 60;
  return ctx.namespace?.accessLevel ?? 0;
}

/**
 * The caller's level on the groups above the addressed project (the namespace's own level for a group, or
 * from a context signed without it); administrators rank above every member.
 */
export function groupAccessLevelOf(ctx: InternalContext): number {
  if (ctx.principal?.isAdmin) return 60;
  return ctx.namespace?.groupAccessLevel ?? ctx.namespace?.accessLevel ?? 0;
}

export function requireAccess(ctx: InternalContext, minimum: number): void {
  if (accessLevelOf(ctx) < minimum) throw new ForbiddenError();
}

export function isHigherTier(ctx: InternalContext): boolean {
  return ctx.tier !== 'free';
}
