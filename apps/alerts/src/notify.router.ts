import { Router, type Request, type Response } from 'express';
import { hasIllFormedString, isHigherTier, requestOrigin, sendJson } from '@gl/service-kit';
import { jsonDepth, mapGenericPayload, mapPrometheusAlert } from './alert-payload';
import type { AlertsService } from './alerts.service';
import { tokenMatches } from './integration-token';
import type { NotifyLookup } from './notify-lookup';

/** GitLab's DeepSize limits for notify payloads. */
export const MAX_PAYLOAD_BYTES = 1024 * 1024;
export const MAX_PAYLOAD_DEPTH = 100;

export interface NotifyRateLimit {
  /** Requests allowed per integration path and period; 0 turns throttling off (GitLab's default). */
  requests: number;
  periodSeconds: number;
}

const GENERIC = /^\/(.+?)\/alerts\/notify(?:\/([^/]+)\/([A-Za-z0-9]+))?(?:\.json)?$/;
const PROMETHEUS = /^\/(.+?)\/prometheus\/alerts\/notify\.json$/;

/** Reads at most `limit` bytes; the rest is drained so the answer reaches the client cleanly. */
function readLimited(req: Request, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** `Authorization: Bearer <token>`, or the password of HTTP Basic auth. */
function tokenOf(req: Request): string | null {
  const header = req.headers.authorization ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(header);
  if (bearer) return bearer[1]!.trim();
  const basic = /^Basic\s+(.+)$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1]!.trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : null;
  }
  return null;
}

/** A fixed window per path (GitLab's Rack::Attack throttle keys on the notify path). */
function createThrottle(limit: NotifyRateLimit) {
  const windows = new Map<string, { start: number; count: number }>();
  return (key: string): number | null => {
    if (limit.requests <= 0) return null;
    const now = Date.now();
    const periodMs = limit.periodSeconds * 1000;
    let window = windows.get(key);
    if (!window || now - window.start >= periodMs) {
      if (windows.size > 10_000) windows.clear();
      window = { start: now, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count <= limit.requests) return null;
    return Math.max(1, Math.ceil((window.start + periodMs - now) / 1000));
  };
}

const status = (res: Response, code: number): void => {
  res.status(code).end();
};

/**
 * Alert ingestion outside /api/v4, reading the raw body itself so the checks run in GitLab's order:
 * size/depth 400 → no active integration 403 → wrong token 401 → invalid JSON 400 → nothing to resolve
 * 400 → 200 `[{"iid","title"}]` (Prometheus: 201).
 */
export function createNotifyRouter(
  lookup: NotifyLookup,
  alerts: AlertsService,
  producer: string,
  rateLimit: NotifyRateLimit,
): Router {
  const router = Router();
  const throttle = createThrottle(rateLimit);

  async function handle(req: Request, res: Response, kind: 'http' | 'prometheus', identifier: string) {
    const retryAfter = throttle(req.path);
    if (retryAfter !== null) {
      req.resume();
      res.setHeader('Retry-After', String(retryAfter));
      res.setHeader('Content-Type', 'text/plain');
      res.status(429).end('Retry later\n');
      return;
    }
    const raw = await readLimited(req, MAX_PAYLOAD_BYTES);
    const text = raw?.toString('utf8') ?? '';
    if (raw === null || jsonDepth(text) > MAX_PAYLOAD_DEPTH) return status(res, 400);

    const ns = req.ctx.namespace;
    if (!ns || ns.kind !== 'project') return status(res, 403);
    const { integration, opsgenieActive } = await lookup(ns.id, kind, identifier);
    if (!integration || opsgenieActive) return status(res, 403);
    if (!tokenMatches(tokenOf(req), integration)) return status(res, 401);

    let payload: unknown = {};
    if (text.trim() !== '') {
      try {
        payload = JSON.parse(text);
      } catch {
        return status(res, 400);
      }
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return status(res, 400);
    // A lone surrogate (`"\ud800"`) is not Unicode and would be stored as U+FFFD: refused as bad input.
    if (hasIllFormedString(payload)) return status(res, 400);
    const body = payload as Record<string, unknown>;
    const origin = requestOrigin(producer, req.ctx);

    if (kind === 'prometheus') {
      const list = Array.isArray(body.alerts) ? (body.alerts as unknown[]) : [];
      for (const item of list) {
        if (!item || typeof item !== 'object' || Array.isArray(item)) continue;
        const one = item as Record<string, unknown>;
        await alerts.ingest(integration, mapPrometheusAlert(one), one, origin);
      }
      return status(res, 201);
    }

    const alert = await alerts.ingest(
      integration,
      mapGenericPayload(body, isHigherTier(req.ctx)),
      body,
      origin,
    );
    if (!alert) return status(res, 400);
    sendJson(res, 200, [{ iid: alert.iid, title: alert.title }]);
  }

  router.post(PROMETHEUS, (req, res, next) => {
    handle(req, res, 'prometheus', 'prometheus').catch(next);
  });
  router.post(GENERIC, (req, res, next) => {
    const match = GENERIC.exec(req.path)!;
    handle(req, res, 'http', match[3] ?? 'legacy').catch(next);
  });
  return router;
}
