import type { Request } from 'express';
import type { Principal } from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  UnauthorizedError,
  hasExpired,
  todayUtc,
} from '@gl/service-kit';
import type { TokenDoc, UserDoc } from '../identity/identity.models';
import { isInternalUser } from '../identity/users.internal';
import type { UsersStore } from '../identity/users.store';
import { userWebUrl, avatarUrl } from '../identity/urls';
import { hashToken } from './tokens';

export interface Authenticated {
  principal: Principal;
  /** The token's own user, before any Sudo impersonation. */
  tokenUserId: number;
  /** The personal access token of the request (GET/DELETE /personal_access_tokens/self). */
  tokenId: number;
}

/** Where GitLab looks for a token, in its order: private_token param, PRIVATE-TOKEN header, Bearer, access_token. */
export function extractToken(req: Request): string | null {
  const query = req.query as Record<string, unknown>;
  if (typeof query.private_token === 'string' && query.private_token) return query.private_token;
  const header = req.headers['private-token'];
  if (typeof header === 'string' && header) return header;
  const authorization = req.headers.authorization;
  if (authorization && /^bearer\s+/i.test(authorization))
    return authorization.replace(/^bearer\s+/i, '').trim();
  if (typeof query.access_token === 'string' && query.access_token) return query.access_token;
  return null;
}

const invalidToken = (description: string): HttpError =>
  new HttpError(401, { error: 'invalid_token', error_description: description });

export function insufficientScope(scopes: readonly string[]): HttpError {
  return new HttpError(403, {
    error: 'insufficient_scope',
    error_description: 'The request requires higher privileges than provided by the access token.',
    scope: scopes.join(' '),
  });
}

/**
 * GitLab's API guard answers a valid token of a user who may not use the API with
 * `forbidden!(Gitlab::Auth::UserAccessDeniedReason#rejection_message)` (lib/api/api_guard.rb).
 */
export function accessDeniedReason(user: Pick<UserDoc, 'state'>, externalUrl: string): string {
  if (user.state === 'deactivated') {
    return (
      'Your account has been deactivated by your administrator. ' +
      `Please log back in from a web browser to reactivate your account at ${externalUrl}`
    );
  }
  return 'Your account has been blocked.';
}

export function toPrincipal(user: UserDoc, scopes: string[], externalUrl: string): Principal {
  return {
    id: user._id,
    username: user.username,
    name: user.name,
    state: user.state,
    avatar_url: avatarUrl(user),
    web_url: userWebUrl(externalUrl, user),
    email: user.email,
    isAdmin: user.isAdmin,
    scopes,
  };
}

/**
 * The principal of a token's own user, made once per token and user document: both come from the identity
 * cache, the same objects until either changes, and the principal (a Gravatar hash, two URLs) is the same
 * for every request between. Principals are never modified after they are made.
 */
const principals = new WeakMap<TokenDoc, { user: UserDoc; externalUrl: string; principal: Principal }>();

function principalOf(record: TokenDoc, user: UserDoc, externalUrl: string): Principal {
  const known = principals.get(record);
  if (known?.user === user && known.externalUrl === externalUrl) return known.principal;
  const principal = toPrincipal(user, record.scopes, externalUrl);
  principals.set(record, { user, externalUrl, principal });
  return principal;
}

/**
 * The user whose valid token the request carries, or null: what the rate limits count by (throttle/). The
 * token lookup goes through the identity cache, which authentication then finds warm.
 */
export async function identifyCaller(users: UsersStore, req: Request): Promise<number | null> {
  const token = extractToken(req);
  if (token === null) return null;
  const record = await users.tokenByHash(hashToken(token));
  if (!record || record.revoked || hasExpired(record.expiresAt)) return null;
  return record.userId;
}

/**
 * Resolves the caller. A token that matches nothing is a 401 even on routes that allow anonymous access:
 * GitLab never silently downgrades a bad token to an anonymous request.
 */
export async function authenticate(
  req: Request,
  users: UsersStore,
  externalUrl: string,
): Promise<Authenticated | null> {
  const token = extractToken(req);
  if (token === null) return null;
  const record = await users.tokenByHash(hashToken(token));
  if (!record) throw new UnauthorizedError();
  if (record.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
  // GitLab tokens expire at the start of their expiry date.
  if (hasExpired(record.expiresAt)) {
    throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
  }
  const user = await users.cachedById(record.userId);
  if (!user) throw new UnauthorizedError();
  if (user.state !== 'active') throw new ForbiddenError(accessDeniedReason(user, externalUrl));
  // GlobalPolicy prevents :access_api for internal users (UserAccessDeniedReason :internal).
  if (isInternalUser(user)) throw new ForbiddenError('This action cannot be performed by internal users');
  users.recordTokenUse(record);
  users.recordActivity(user, todayUtc());

  const sudo = sudoTarget(req);
  if (sudo === null)
    return {
      principal: principalOf(record, user, externalUrl),
      tokenUserId: user._id,
      tokenId: record._id,
    };
  if (!user.isAdmin) throw new ForbiddenError('Must be admin to use sudo');
  if (!record.scopes.includes('sudo')) throw insufficientScope(['sudo']);
  const target = /^\d+$/.test(sudo) ? await users.findById(Number(sudo)) : await users.findByUsername(sudo);
  if (!target) throw new NotFoundError(`User with ID or username '${sudo}'`);
  return {
    principal: toPrincipal(target, record.scopes, externalUrl),
    tokenUserId: user._id,
    tokenId: record._id,
  };
}

function sudoTarget(req: Request): string | null {
  const header = req.headers.sudo;
  if (typeof header === 'string' && header.trim()) return header.trim();
  const param = (req.query as Record<string, unknown>).sudo;
  if (typeof param === 'string' && param.trim()) return param.trim();
  return null;
}

/**
 * GitLab's scope rule: `api` allows everything, `read_api` only GET/HEAD, and some routes also accept
 * `read_user` (user and events endpoints). Returns the scopes that would have been enough.
 */
export function acceptedScopes(method: string, extra: readonly string[] = []): string[] {
  const read = method === 'GET' || method === 'HEAD';
  return ['api', ...(read ? ['read_api', ...extra] : [])];
}

export function assertScopes(principal: Principal, method: string, extra: readonly string[] = []): void {
  const accepted = acceptedScopes(method, extra);
  if (!principal.scopes.some((s) => accepted.includes(s))) throw insufficientScope(accepted);
}
