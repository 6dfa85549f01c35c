import { backfillMissing, dropIndexesIfPresent, reportingMigration, type Migration } from '@gl/service-kit';
import { LIST_ORDER_KEYS } from '../noteables/noteable.model';
import { assigneeKeyWords } from '../noteables/word-filters';

/** The list and column indexes before they carried `assigneeKeys` (step 4's shapes and the columns'). */
const EARLIER_FILTER_KEYS = 'state_1_labelKeys_1_milestoneId_1_confidential_1';
const REPLACED = [
  `kind_1_projectId_1__id_-1_${EARLIER_FILTER_KEYS}`,
  ...LIST_ORDER_KEYS.map((key) => `kind_1_projectId_1_${key}_1__id_1_${EARLIER_FILTER_KEYS}`),
  'kind_1_positionScope_1_state_1_relativePosition_1__id_1_projectId_1_labelKeys_1_milestoneId_1_confidential_1',
];

/**
 * Fills `assigneeKeys` (the assignees as words, which list filters, the confidential read rule and board
 * columns check on index entries) on noteables written before it existed, found by its index; then drops
 * the list and column indexes that the ones ending in `assigneeKeys` replace. Idempotent: filled documents
 * are not read again, and an index is dropped only if it is there.
 */
export function assigneeKeyWordsMigration(version: number): Migration {
  return reportingMigration(
    version,
    'noteables: assigneeKeys (assignees as words) beside assigneeIds, in the list and column indexes',
    'noteables: assignee words filled',
    async (connection) => {
      const noteables = connection.collection('noteables');
      // The declared indexes first: the fill finds the documents without the field by its index.
      await connection.models.Noteable?.init();
      const filled = await backfillMissing(noteables, 'assigneeKeys', { assigneeIds: 1 }, (doc) => ({
        assigneeKeys: assigneeKeyWords(Array.isArray(doc.assigneeIds) ? (doc.assigneeIds as number[]) : []),
      }));
      const dropped = await dropIndexesIfPresent(noteables, REPLACED);
      return { filled, dropped };
    },
  );
}
