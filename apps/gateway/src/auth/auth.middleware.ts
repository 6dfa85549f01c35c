import type { NextFunction, Request, Response } from 'express';
import type { Principal } from '@gl/contracts';
import { UnauthorizedError } from '@gl/service-kit';
import type { IdentityStores } from '../identity/identity.stores';
import { assertScopes, authenticate } from './authenticate';

declare module 'express-serve-static-core' {
  interface Request {
    principal: Principal | null;
    /** The personal access token that authenticated the request, when one did. */
    accessTokenId?: number;
  }
}

export interface AuthDeps {
  stores: Pick<IdentityStores, 'users'>;
  externalUrl: string;
}

export interface AuthPolicyOptions {
  required: boolean;
  readScopes?: readonly string[];
}

/** Authenticates, enforces token scopes for the method, and sets `req.principal` (null when anonymous). */
export async function applyAuth(
  req: Request,
  deps: AuthDeps,
  options: AuthPolicyOptions,
): Promise<Principal | null> {
  const result = await authenticate(req, deps.stores.users, deps.externalUrl);
  if (!result) {
    if (options.required) throw new UnauthorizedError();
    req.principal = null;
    return null;
  }
  assertScopes(result.principal, req.method, options.readScopes);
  req.principal = result.principal;
  req.accessTokenId = result.tokenId;
  return result.principal;
}

export function requireAuth(deps: AuthDeps, options: AuthPolicyOptions = { required: true }) {
  return async (req: Request, _res: Response, next: NextFunction): Promise<void> => {
    await applyAuth(req, deps, options);
    next();
  };
}
