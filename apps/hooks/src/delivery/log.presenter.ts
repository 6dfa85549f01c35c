import type { WebHookLogEntity } from '@gl/contracts';
import type { DeliveryDoc } from './delivery.models';

/**
 * A delivery as GitLab's API shows a hook's log entry (lib/api/entities/web_hook_log.rb):
 * the last attempt's request and answer; a delivery not attempted yet shows what will be sent.
 */
export function presentWebHookLog(doc: DeliveryDoc): WebHookLogEntity {
  return {
    id: doc._id,
    url: doc.url,
    trigger: doc.trigger,
    request_headers: doc.requestHeaders,
    request_data: JSON.parse(doc.payload) as unknown,
    response_headers: doc.last?.responseHeaders ?? {},
    response_body: doc.last?.responseBody ?? '',
    execution_duration: doc.last?.executionDuration ?? 0,
    response_status: doc.last?.responseStatus ?? null,
    created_at: new Date(doc.createdAt).toISOString(),
    // Not GitLab's: where the delivery stands, how often it was tried, why it failed.
    status: doc.status,
    attempts: doc.attempts,
    idempotency_key: doc.idempotencyKey,
    reason: doc.reason,
  };
}
