import { backfillMissing, type Migration } from '@gl/service-kit';
import { labelFields } from '../noteables/word-filters';

/**
 * Fills `labelSet` and `labelCount` (what the list filters read) on noteables written before they
 * existed. Idempotent: it only touches documents without `labelCount`, found by its index.
 */
export function labelFieldsMigration(version: number): Migration {
  return {
    version,
    name: 'noteables: labelSet and labelCount beside labels',
    async up(connection) {
      await backfillMissing(connection.collection('noteables'), 'labelCount', { labels: 1 }, (doc) =>
        labelFields(Array.isArray(doc.labels) ? (doc.labels as string[]) : []),
      );
    },
  };
}
