import type { Request, RequestHandler, Response } from 'express';
import type { Throttle, ThrottleSettings } from './throttle.settings';
import type { ThrottleStore } from './throttle.store';

/** Gitlab::Throttle.rate_limiting_response_text's default. */
const RESPONSE_TEXT = 'Retry later\n';

/**
 * Gitlab::RackAttack.throttled_response_headers (lib/gitlab/rack_attack.rb): the limit per minute (rounded
 * up), the count in the window, what remains of the period's limit, and when the window ends.
 */
export function rateLimitHeaders(throttle: Throttle, observed: number, nowSeconds: number) {
  const retryAfter = throttle.periodSeconds - (nowSeconds % throttle.periodSeconds);
  const reset = nowSeconds + retryAfter;
  return {
    headers: {
      'RateLimit-Name': throttle.name,
      'RateLimit-Limit': String(Math.ceil((throttle.limit * 60) / throttle.periodSeconds)),
      'RateLimit-Observed': String(observed),
      'RateLimit-Remaining': String(Math.max(0, throttle.limit - observed)),
      'RateLimit-Reset': String(reset),
      'RateLimit-ResetTime': new Date(reset * 1000).toUTCString(),
    },
    retryAfter,
  };
}

/**
 * Rack::Attack's `throttle_authenticated_api` (by user) and `throttle_unauthenticated_api` (by client
 * address) over `/api/` requests, in fixed windows of the period, counted in the store every gateway
 * replica shares. Past the limit: 429 `Retry later` with GitLab's headers and Retry-After. Beyond GitLab
 * (which sends them only with the 429, gitlab-org/gitlab#365728), every counted answer carries the
 * RateLimit headers, so a client can slow down before it is refused.
 */
export function throttleMiddleware(
  settings: ThrottleSettings,
  store: ThrottleStore,
  /** The user a request's token belongs to, or null (no token, or one that authenticates nobody). */
  identify: (req: Request) => Promise<number | null>,
): RequestHandler {
  const refuse = (res: Response, retryAfter: number): void => {
    res.status(429).setHeader('Retry-After', String(retryAfter));
    res.type('text/plain').send(RESPONSE_TEXT);
  };
  return (req, res, next) => {
    if (!req.path.startsWith('/api/')) return next();
    void (async () => {
      const userId = await identify(req);
      const throttle = userId !== null ? settings.authenticated : settings.unauthenticated;
      if (!throttle) return next();
      const who = userId !== null ? `user:${userId}` : `ip:${req.socket.remoteAddress ?? 'unknown'}`;
      const nowSeconds = Math.floor(Date.now() / 1000);
      const window = Math.floor(nowSeconds / throttle.periodSeconds);
      const ends = new Date((window + 1) * throttle.periodSeconds * 1000);
      const observed = await store.increment(`${throttle.name}:${window}:${who}`, ends);
      const { headers, retryAfter } = rateLimitHeaders(throttle, observed, nowSeconds);
      res.set(headers);
      if (observed > throttle.limit) return refuse(res, retryAfter);
      next();
    })().catch(next);
  };
}
