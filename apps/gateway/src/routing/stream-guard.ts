import type { Request, Response } from 'express';
import type { UsersStore } from '../identity/users.store';
import { authenticate } from '../auth/authenticate';

/**
 * How often an open event stream's credentials are checked again. Token and user lookups come from the
 * identity cache (IDENTITY_CACHE_TTL_MS), so a token revoked or a user blocked on another gateway replica
 * ends the stream within this plus that TTL.
 */
export const STREAM_REAUTH_MS = 5_000;

/** What authenticate reads of a request: its query and headers. */
export type StreamCredentials = Pick<Request, 'query' | 'headers'>;

/** The credentials as the request brought them: take them before the URL loses its credential parameters. */
export function streamCredentials(req: Request): StreamCredentials {
  return { query: { ...req.query }, headers: { ...req.headers } };
}

/**
 * Keeps checking the credentials a live stream (text/event-stream) was opened with, by the rule every
 * request passes (authenticate.ts): once the token is revoked or expired, or its user blocked, the stream
 * ends here, the service's end of it too (proxy.ts), and the client's reconnection is a 401. Anonymous
 * streams have nothing to revoke.
 */
export function guardStream(
  credentials: StreamCredentials,
  req: Request,
  res: Response,
  users: UsersStore,
  externalUrl: string,
  intervalMs = STREAM_REAUTH_MS,
): void {
  if (!req.principal) return;
  const end = (): void => {
    clearInterval(timer);
    if (!res.destroyed) res.destroy();
  };
  const timer = setInterval(() => {
    authenticate(credentials as Request, users, externalUrl).then((still) => {
      if (!still) end();
    }, end);
  }, intervalMs);
  timer.unref();
  res.on('close', () => clearInterval(timer));
}
