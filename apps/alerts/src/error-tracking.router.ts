import { isIP } from 'node:net';
import { Router, type Request } from 'express';
import {
  ACCESS_LEVELS,
  TEXT_LIMITS,
  lengthErrors,
  patchErrorTrackingBody,
  putErrorTrackingBody,
} from '@gl/contracts';
import { ModelError, NotFoundError, ParamError, collectParams, parseParams, sendJson } from '@gl/service-kit';
import { projectWith } from './alerts.access';
import type { ErrorTrackingChanges, ErrorTrackingSettings, ErrorTrackingStore } from './error-tracking.store';
import { presentErrorTracking } from './presenters';

const NOT_FOUND = 'Error Tracking Setting';

function ipv4Blocked(ip: string): boolean {
  const [a, b] = ip.split('.').map(Number) as [number, number];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

function ipBlocked(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  const version = isIP(bare);
  if (version === 4) return ipv4Blocked(bare);
  if (version === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    if (mapped) return ipv4Blocked(mapped[1]!);
    return (
      bare === '::' ||
      bare === '::1' ||
      /^fe[89ab]/.test(bare) ||
      /^f[cd]/.test(bare) ||
      bare.startsWith('::ffff:')
    );
  }
  return bare === 'localhost' || bare.endsWith('.localhost') || bare === '0';
}

/**
 * `api_url` as GitLab's UrlBlocker sees it: http(s) only, no credentials, and no loopback, link-local or
 * private address unless the instance allows local requests.
 */
export function apiUrlProblem(value: string, allowLocal: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'is blocked: URI is invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'is blocked: Only allowed schemes are http, https';
  if (url.username || url.password) return 'is blocked: Username and password are not allowed in the URL';
  if (!allowLocal && ipBlocked(url.hostname))
    return 'is blocked: Requests to the local network are not allowed';
  return null;
}

export function createErrorTrackingRouter(store: ErrorTrackingStore, allowLocalRequests: boolean): Router {
  const router = Router();
  const paths = ['/projects/:id/error_tracking/settings', '/projects/:id/error_tracking/settings/'];

  async function find(projectId: number): Promise<ErrorTrackingSettings> {
    const settings = await store.find(projectId);
    if (!settings) throw new NotFoundError(NOT_FOUND);
    return settings;
  }

  /** Grape's `requires :active, allow_blank: false`: missing, then empty, then invalid. */
  function checkActive(params: Record<string, unknown>): void {
    if (params.active === undefined || params.active === null) throw new ParamError(['active is missing']);
    if (typeof params.active === 'string' && params.active.trim() === '')
      throw new ParamError(['active is empty']);
  }

  const maintainer = (req: Request) => projectWith(req.ctx, ACCESS_LEVELS.maintainer);

  router.get(paths, async (req, res) => {
    const ns = maintainer(req);
    sendJson(res, 200, presentErrorTracking(await find(ns.id)));
  });

  router.patch(paths, async (req, res) => {
    const ns = maintainer(req);
    const raw = collectParams(req);
    checkActive(raw);
    const params = parseParams(patchErrorTrackingBody, raw);
    await find(ns.id);
    const changes: ErrorTrackingChanges = { active: params.active };
    if (params.integrated !== undefined) changes.integrated = params.integrated;
    const updated = await store.update(ns.id, changes);
    if (!updated) throw new NotFoundError(NOT_FOUND);
    sendJson(res, 200, presentErrorTracking(updated));
  });

  router.put(paths, async (req, res) => {
    const ns = maintainer(req);
    const raw = collectParams(req);
    checkActive(raw);
    const params = parseParams(putErrorTrackingBody, raw);
    const changes: ErrorTrackingChanges = { active: params.active, integrated: params.integrated };
    if (params.api_url !== undefined) {
      const apiUrl = params.api_url.trim();
      const problem = apiUrl ? apiUrlProblem(apiUrl, allowLocalRequests) : null;
      const messages = [
        ...lengthErrors(apiUrl, TEXT_LIMITS.errorTrackingApiUrl),
        ...(problem ? [problem] : []),
      ];
      if (messages.length > 0) throw ModelError.fields({ api_url: messages });
      changes.apiUrl = apiUrl || null;
    }
    if (params.project_name !== undefined) changes.projectName = params.project_name || null;
    if (params.token !== undefined) changes.token = params.token || null;
    sendJson(res, 200, presentErrorTracking(await store.upsert(ns.id, changes)));
  });

  return router;
}
