import { reportingMigration, type Migration } from '@gl/service-kit';
import type { NoteableDoc } from '../noteables/noteable.model';
import { createNoteableWordsStore, wordsOf } from '../noteables/noteable-words.store';
import { compiledDiscussionsModels } from './compiled-models';

const BATCH = 1_000;

/**
 * The label and assignee entries (noteable-words.store.ts) of the noteables written before they existed:
 * every noteable is read once in `_id` order, a batch at a time, and its entries are created (an entry
 * that is there is only touched). Idempotent; progress is logged per 10,000 noteables.
 */
export function noteableWordsMigration(version: number): Migration {
  return reportingMigration(
    version,
    'noteable_words: an entry per label and assignee of every noteable',
    'noteable_words: filled',
    async (connection, logger) => {
      const started = Date.now();
      const { noteables, noteableWords } = compiledDiscussionsModels(
        connection,
        'noteables',
        'noteableWords',
      );
      await noteableWords.init();
      const words = createNoteableWordsStore(noteableWords);
      // Ids start at 1; a finite bound keeps every batch a range of the _id index (-Infinity is not one).
      let after = 0;
      let read = 0;
      for (;;) {
        const batch = await noteables
          .find({ _id: { $gt: after } })
          .sort({ _id: 1 })
          .limit(BATCH)
          .select({ labels: 1, assigneeIds: 1 })
          .lean<Pick<NoteableDoc, '_id' | 'labels' | 'assigneeIds'>[]>();
        await words.ensureMany(batch.map((doc) => ({ id: doc._id, words: wordsOf(doc) })));
        read += batch.length;
        if (read % 10_000 < batch.length && batch.length > 0) {
          logger.info({ read, ms: Date.now() - started }, 'noteable_words: filling');
        }
        if (batch.length < BATCH) break;
        after = batch[batch.length - 1]!._id;
      }
      return { read };
    },
  );
}
