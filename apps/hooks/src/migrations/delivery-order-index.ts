import { replacedIndexesMigration, type Migration } from '@gl/service-kit';

/**
 * A hook's queue head is read along `{hookId, status, sequence, _id}`: a delivery's sequence is now its
 * event's stream sequence, and a resend shares it with the delivery before it (delivery.models.ts), so
 * `_id` breaks the tie. Builds the new index, then drops `{hookId, status, sequence}`, its prefix, which
 * would only cost every write.
 */
export function deliveryOrderIndexMigration(version: number): Migration {
  return replacedIndexesMigration(version, {
    name: 'web_hook_deliveries: {hookId, status, sequence, _id} replaces {hookId, status, sequence}',
    done: 'web_hook_deliveries: queue index replaced',
    collection: 'web_hook_deliveries',
    index: { hookId: 1, status: 1, sequence: 1, _id: 1 },
    replaced: ['hookId_1_status_1_sequence_1'],
  });
}
