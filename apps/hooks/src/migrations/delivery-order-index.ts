import { dropIndexesIfPresent, type Migration } from '@gl/service-kit';

const REPLACED = 'hookId_1_status_1_sequence_1';

/**
 * A hook's queue head is read along `{hookId, status, sequence, _id}`: a delivery's sequence is now its
 * event's stream sequence, and a resend shares it with the delivery before it (delivery.models.ts), so
 * `_id` breaks the tie. Builds the new index, then drops `{hookId, status, sequence}`, its prefix, which
 * would only cost every write (idempotent: both steps check first).
 */
export function deliveryOrderIndexMigration(version: number): Migration {
  return {
    version,
    name: 'web_hook_deliveries: {hookId, status, sequence, _id} replaces {hookId, status, sequence}',
    async up(connection, logger) {
      const deliveries = connection.collection('web_hook_deliveries');
      const started = Date.now();
      await deliveries.createIndex({ hookId: 1, status: 1, sequence: 1, _id: 1 });
      const dropped = await dropIndexesIfPresent(deliveries, [REPLACED]);
      logger.info({ ms: Date.now() - started, dropped }, 'web_hook_deliveries: queue index replaced');
    },
  };
}
