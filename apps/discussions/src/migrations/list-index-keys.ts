import { dropIndexesIfPresent, reportingMigration, type Migration } from '@gl/service-kit';
import { LIST_ORDER_KEYS } from '../noteables/noteable.model';

/** The list indexes before they carried the filter keys (noteables/noteable.model.ts LIST_FILTER_KEYS). */
const REPLACED = [
  'kind_1_projectId_1__id_-1',
  ...LIST_ORDER_KEYS.map((key) => `kind_1_projectId_1_${key}_1__id_1`),
];

/**
 * The issue and merge request list indexes now end in the keys the list filters read (state, label words,
 * milestone, confidentiality). Mongoose builds the new ones when the model compiles; the old ones, a
 * prefix of each, would only cost every write and could still be chosen for a list, which then reads
 * every document it passes. Waits for the build, then drops them (idempotent: it checks first).
 */
export function listIndexKeysMigration(version: number): Migration {
  return reportingMigration(
    version,
    'noteables: list indexes carry state, labelKeys, milestoneId and confidential',
    'noteables: list indexes replaced',
    async (connection) => {
      await connection.models.Noteable?.init();
      return { dropped: await dropIndexesIfPresent(connection.collection('noteables'), REPLACED) };
    },
  );
}
