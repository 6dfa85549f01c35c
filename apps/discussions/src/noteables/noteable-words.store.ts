import type { Model } from 'mongoose';
import { countUpTo, type BeyondLimitMemo } from '@gl/service-kit';
import type { NoteableWordDoc } from './noteable.model';
import { andOf, assigneeKey, labelKey, requiredWords } from './word-filters';

/**
 * An entry per label and per assignee of a noteable, `{word, noteableId}` (the words of `labelKeys` and
 * `assigneeKeys`): what a multikey index on `labels` and `assigneeIds` holds on MongoDB, which the local
 * FerretDB cannot build. A list or board column of a rare label or assignee finds its few noteables by a
 * range of these entries and reads just those (`narrow`), where checking the words on its index walked
 * every issue of the scope.
 *
 * Entries may outlive the word on the noteable (a removed label, a deleted issue), never the other way
 * round: a reader re-checks every condition on the noteables it narrows to, so an extra entry costs a
 * lookup, while a missing one would hide an issue. Hence the order of a write (`replace` below).
 */

/** The two kinds of words; `labels` and `assigneeIds` change independently, so each is replaced alone. */
type WordFamily = 'label' | 'assignee';

/** A noteable's words of the families a write sets. */
export interface WordsOfWrite {
  label?: string[];
  assignee?: string[];
}

/** The words of the families a document or a `$set` carries (`labels`, `assigneeIds`). */
export function wordsOf(doc: { labels?: unknown; assigneeIds?: unknown }): WordsOfWrite {
  const words: WordsOfWrite = {};
  if (Array.isArray(doc.labels)) words.label = (doc.labels as string[]).map(labelKey);
  if (Array.isArray(doc.assigneeIds)) words.assignee = (doc.assigneeIds as number[]).map(assigneeKey);
  return words;
}

/**
 * A list or column requiring a label or assignee at most this many noteables have is read among those
 * alone (`narrow`) rather than along its index. Measured on the local FerretDB: reading a word's entries
 * costs about 0.07 ms each and the narrowed page about 12 ms, while a sparse column's count walks every
 * issue of the group at 0.4 µs each (40 ms at 100,000 issues); below this the few issues are the cheaper
 * read in a large group, and cost at most ~30 ms in a small one.
 */
export const NARROW_LIMIT = 200;

/**
 * How long an entry is kept after the last write that named it, whatever later writes say: longer than
 * any clock difference between replicas (see `replace`).
 */
const PRUNE_AFTER_MS = 60_000;

export function createNoteableWordsStore(words: Model<NoteableWordDoc>, now: () => number = Date.now) {
  const families = (set: WordsOfWrite) =>
    (Object.keys(set) as WordFamily[]).map((family) => ({ family, words: [...new Set(set[family])] }));

  /** Creates or refreshes (touchedAt) the entries of these noteables' words, in one write. */
  async function ensureMany(noteables: readonly { id: number; words: WordsOfWrite }[]): Promise<void> {
    const touchedAt = new Date(now());
    const ops = noteables.flatMap(({ id, words: set }) =>
      families(set).flatMap(({ family, words: list }) =>
        list.map((word) => ({
          updateOne: {
            filter: { _id: `${word}:${id}` },
            update: { $set: { word, family, noteableId: id, touchedAt } },
            upsert: true,
          },
        })),
      ),
    );
    if (ops.length > 0) await words.bulkWrite(ops, { ordered: false });
  }

  /** Creates or refreshes (touchedAt) the noteable's entries for these words. */
  const ensure = (noteableId: number, set: WordsOfWrite) => ensureMany([{ id: noteableId, words: set }]);

  /**
   * The ids of the noteables with the word, or null when more than `limit` have it (the caller then reads
   * along its own index). Counted first, so a common word costs one bounded count of entries, and with
   * `memo` none for a minute after (a word that became rare meanwhile is only read the slower way).
   */
  async function fewNoteableIds(
    word: string,
    limit: number,
    memo?: BeyondLimitMemo,
  ): Promise<number[] | null> {
    if ((await countUpTo(words, { word }, limit, memo)) === null) return null;
    // distinct: one answer rather than a document per entry (the local FerretDB spends most of a small
    // read on each document it returns).
    return words.distinct<'noteableId', number>('noteableId', { word });
  }

  return {
    ensure,
    ensureMany,
    fewNoteableIds,

    /**
     * Writes a noteable's words around the write of the noteable itself (`write`):
     * 1. the new words' entries before it, so no reader finds the noteable with a word and no entry;
     * 2. the same entries again after it: a concurrent writer's step 3 may have removed them in between;
     * 3. the family's other entries removed, unless a write named them since this one began (less
     *    PRUNE_AFTER_MS, for clocks that differ between replicas).
     * The last writer's step 2 comes after its own write, so after any earlier writer began: no earlier
     * writer's step 3 removes what the last writer wrote.
     */
    async replace(noteableId: number, set: WordsOfWrite, write: () => Promise<void>): Promise<void> {
      if (families(set).length === 0) return write();
      const began = now();
      await ensure(noteableId, set);
      await write();
      await ensure(noteableId, set);
      await Promise.all(
        families(set).map(({ family, words: list }) =>
          words.deleteMany({
            noteableId,
            family,
            word: { $nin: list },
            touchedAt: { $lt: new Date(began - PRUNE_AFTER_MS) },
          }),
        ),
      );
    },

    /**
     * `filter` among the noteables of the first word it requires (word-filters.ts requiredWords) that
     * at most `limit` noteables have: their ids join it as `_id: {$in}`, which the local FerretDB reads by
     * an index led by _id (patch 0012). Else `filter` as it is.
     */
    async narrow(
      filter: Record<string, unknown>,
      limit: number,
      memo?: BeyondLimitMemo,
    ): Promise<Record<string, unknown>> {
      for (const word of requiredWords(filter)) {
        const ids = await fewNoteableIds(word, limit, memo);
        if (ids !== null) return { $and: [...andOf(filter), { _id: { $in: ids } }] };
      }
      return filter;
    },
  };
}
