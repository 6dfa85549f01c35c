import type { patchErrorTrackingBody, putErrorTrackingBody } from '@gl/contracts';
import { TEXT_LIMITS, lengthErrors } from '@gl/contracts';
import { ModelError, NotFoundError, URL_BLOCK_MESSAGES, checkUrl, isLocalBlockReason } from '@gl/service-kit';
import type { z } from 'zod';
import type { ErrorTrackingChanges, ErrorTrackingSettings, ErrorTrackingStore } from './error-tracking.store';

const NOT_FOUND = 'Error Tracking Setting';

/**
 * `api_url` as GitLab's UrlBlocker sees it: http(s) only, no credentials, and no local address unless the
 * instance allows local requests; every local reason keeps the one message this endpoint has always given.
 * A host that does not resolve passes, as model validators run without DNS rebinding protection.
 */
async function apiUrlProblem(value: string, allowLocal: boolean): Promise<string | null> {
  const result = await checkUrl(value, { allowLocal, refuseCredentials: true, requireResolution: false });
  if (result.ok) return null;
  const reason = isLocalBlockReason(result.reason) ? 'local_network' : result.reason;
  return `is blocked: ${URL_BLOCK_MESSAGES[reason]}`;
}

/** A project's error tracking settings (GitLab's ErrorTracking::ProjectErrorTrackingSetting). */
export function createErrorTrackingService(store: ErrorTrackingStore, allowLocalRequests: boolean) {
  /** The project's settings, or 404 when it has none (or they went while they were written). */
  function found(settings: ErrorTrackingSettings | null): ErrorTrackingSettings {
    if (!settings) throw new NotFoundError(NOT_FOUND);
    return settings;
  }

  async function find(projectId: number): Promise<ErrorTrackingSettings> {
    return found(await store.find(projectId));
  }

  /** PATCH: switches existing settings on or off (and integrated); 404 when the project has none. */
  async function patch(
    projectId: number,
    params: z.infer<typeof patchErrorTrackingBody>,
  ): Promise<ErrorTrackingSettings> {
    await find(projectId);
    const changes: ErrorTrackingChanges = { active: params.active };
    if (params.integrated !== undefined) changes.integrated = params.integrated;
    return found(await store.update(projectId, changes));
  }

  /** PUT: creates or replaces the settings; `api_url` must pass the URL blocker. */
  async function put(
    projectId: number,
    params: z.infer<typeof putErrorTrackingBody>,
  ): Promise<ErrorTrackingSettings> {
    const changes: ErrorTrackingChanges = { active: params.active, integrated: params.integrated };
    if (params.api_url !== undefined) {
      const apiUrl = params.api_url.trim();
      const problem = apiUrl ? await apiUrlProblem(apiUrl, allowLocalRequests) : null;
      const messages = [
        ...lengthErrors(apiUrl, TEXT_LIMITS.errorTrackingApiUrl),
        ...(problem ? [problem] : []),
      ];
      if (messages.length > 0) throw ModelError.fields({ api_url: messages });
      changes.apiUrl = apiUrl || null;
    }
    if (params.project_name !== undefined) changes.projectName = params.project_name || null;
    if (params.token !== undefined) changes.token = params.token || null;
    return store.upsert(projectId, changes);
  }

  return { find, patch, put };
}
export type ErrorTrackingService = ReturnType<typeof createErrorTrackingService>;
