import { createBeyondLimitMemo } from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import { andOf } from '../noteables/word-filters';
import { NARROW_LIMIT, createNoteableWordsStore } from '../noteables/noteable-words.store';
import { afterCursor, keysetPageOf, keysetSort, type KeysetOrder } from './issuable-keyset';
import type { TimeKeysetCursor } from '@gl/service-kit';

/**
 * Keyset pages of issue and merge request lists: the finder's filter, a range from the cursor on the
 * order's list index ({kind, projectId, createdAt|updatedAt, _id, …} or {kind, projectId, _id, …}), and
 * `limit + 1` rows. Nothing is skipped and nothing counted, so a page 10,000 deep reads what the first
 * does. A filter requiring a label or assignee few noteables have is read among those (noteable-words).
 */
export function createIssuableKeysetStore(models: Pick<DiscussionsModels, 'noteables' | 'noteableWords'>) {
  const { noteables } = models;
  const words = createNoteableWordsStore(models.noteableWords);
  const commonWords = createBeyondLimitMemo();

  return {
    async seek(
      filter: Record<string, unknown>,
      order: KeysetOrder,
      after: TimeKeysetCursor | null,
      limit: number,
    ) {
      const narrowed = await words.narrow(filter, NARROW_LIMIT, commonWords);
      // One flat $and, as the finder builds it: the local database answers it by SQL only when flat.
      const found = await noteables
        .find({ $and: [...andOf(narrowed), ...afterCursor(order, after)] })
        .sort(keysetSort(order))
        .limit(limit + 1)
        .lean<NoteableDoc[]>();
      return keysetPageOf(order, found, limit);
    },
  };
}
