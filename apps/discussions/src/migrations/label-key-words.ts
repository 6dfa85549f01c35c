import { backfillMissing, type Migration } from '@gl/service-kit';
import { labelKeyWords } from '../noteables/word-filters';

/**
 * Fills `labelKeys` (the board columns' label words) on noteables written before it existed. Idempotent:
 * it only touches documents without `labelKeys`, found by its index.
 */
export function labelKeyWordsMigration(version: number): Migration {
  return {
    version,
    name: 'noteables: labelKeys (label keys as words) beside labels',
    async up(connection) {
      await backfillMissing(connection.collection('noteables'), 'labelKeys', { labels: 1 }, (doc) => ({
        labelKeys: labelKeyWords(Array.isArray(doc.labels) ? (doc.labels as string[]) : []),
      }));
    },
  };
}
