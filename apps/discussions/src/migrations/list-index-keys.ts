import { replacedIndexesMigration, type Migration } from '@gl/service-kit';
import { LIST_ORDER_KEYS } from '../noteables/noteable.model';

/**
 * The issue and merge request list indexes now end in the keys the list filters read (state, label words,
 * milestone, confidentiality, noteables/noteable.model.ts LIST_FILTER_KEYS); the ones before, a prefix of
 * each, go (replaced-indexes.ts).
 */
export function listIndexKeysMigration(version: number): Migration {
  return replacedIndexesMigration(version, {
    name: 'noteables: list indexes carry state, labelKeys, milestoneId and confidential',
    done: 'noteables: list indexes replaced',
    model: 'Noteable',
    collection: 'noteables',
    replaced: [
      'kind_1_projectId_1__id_-1',
      ...LIST_ORDER_KEYS.map((key) => `kind_1_projectId_1_${key}_1__id_1`),
    ],
  });
}
