import {
  boundedTotal,
  countUpTo,
  createBeyondLimitMemo,
  findAcrossParts,
  type BeyondLimitMemo,
} from '@gl/service-kit';
import type { DiscussionsModels } from '../discussions.models';
import type { NoteableDoc } from '../noteables/noteable.model';
import { andOf } from '../noteables/word-filters';
import { NARROW_LIMIT, createNoteableWordsStore } from '../noteables/noteable-words.store';
import type { ColumnCursor } from './column-cursor';

type Filter = Record<string, unknown>;

/** GitLab (Kaminari MAX_COUNT_LIMIT): past 10,000 issues a list's total is not counted and not sent. */
export const COLUMN_COUNT_LIMIT = 10_000;

export interface ColumnPage {
  items: NoteableDoc[];
  /** Null when more than COLUMN_COUNT_LIMIT issues (the store's count limit) are in the column. */
  total: number | null;
  hasNext: boolean;
}

const BY_POSITION = { relativePosition: 1, _id: 1 } as const;
const BY_ID = { _id: 1 } as const;

/**
 * One page of a board column in Issue.order_by_relative_position (position ascending, nulls last, then id).
 * The issues with a position are those of the root group's positioning scope (a position is only ever set
 * with its `positionScope`, positions.store.ts), read along the column index {kind, positionScope, state,
 * relativePosition, _id, …}: the page walks it in order and checks the rest of the filter (readable
 * projects, label words, milestone, confidentiality) on each entry, never reading a document it passes.
 * The issues without one follow in id order, along {kind, projectId, relativePosition, _id}.
 * A column found past the count limit is remembered as such for a minute (`memo`): that count walks
 * more entries than the page, and a board's columns are read again at every page load.
 * A column that requires a label or an assignee that few issues have is read among those issues only:
 * their ids, found by the word's entries, go into the filter and the local database reads them by id
 * (FerretDB patch 0012). A sparse column otherwise walks the group's entries until it has a page, and its
 * count walks all of them.
 */
export function createBoardColumnsStore(
  models: Pick<DiscussionsModels, 'noteables' | 'noteableWords'>,
  countLimit = COLUMN_COUNT_LIMIT,
  memo: BeyondLimitMemo = createBeyondLimitMemo(),
  narrowLimit = NARROW_LIMIT,
) {
  const { noteables } = models;
  const words = createNoteableWordsStore(models.noteableWords);

  /** The filter among the few issues of a label or assignee it requires (noteable-words.store.ts). */
  const narrowed = (filter: Filter) => words.narrow(filter, narrowLimit, memo);

  const positionedIn = (filter: Filter, scope: string): Filter => ({
    $and: [...andOf(filter), { positionScope: scope }],
  });
  const unpositioned = (filter: Filter): Filter => ({ $and: [...andOf(filter), { relativePosition: null }] });

  /** How many issues have a position, or null past `countLimit`: one walk that stops past the limit. */
  const positionedUpTo = (positioned: Filter) => countUpTo(noteables, positioned, countLimit, memo);

  async function page(given: Filter, scope: string, skip: number, limit: number): Promise<ColumnPage> {
    const filter = await narrowed(given);
    const positioned = positionedIn(filter, scope);
    const blank = unpositioned(filter);
    // A first page that is full cannot tell the total: the positioned issues are counted (up to the limit)
    // beside the page rather than after it (on a page that turns out short the count is not needed).
    const early = skip + limit < countLimit ? positionedUpTo(positioned) : null;
    // Handled here too: if the page read fails first, the count's own failure must not go unobserved.
    early?.catch(() => undefined);
    // One more than the page, to know whether a next page exists without counting; the issues without a
    // position follow those with one.
    const found = await findAcrossParts<NoteableDoc>(
      noteables,
      [
        { filter: positioned, sort: BY_POSITION },
        { filter: blank, sort: BY_ID },
      ],
      skip,
      limit + 1,
    );
    const items = found.slice(0, limit);
    const hasNext = found.length > limit;
    const total = await boundedTotal({ skip, shown: items.length, hasNext }, countLimit, async () => {
      const withPosition = await (early ?? positionedUpTo(positioned));
      const without = withPosition === null ? 0 : await noteables.countDocuments(blank);
      return withPosition === null || withPosition + without > countLimit ? null : withPosition + without;
    });
    return { items, total, hasNext };
  }

  /**
   * The page after `after` (keyset pagination: GitLab's boards page their columns by cursor), `limit`
   * issues and whether more follow. It starts where the cursor points along the same index, so a deep page
   * costs what the first does, where an offset page walks every entry before it.
   */
  async function pageAfter(
    given: Filter,
    scope: string,
    after: ColumnCursor | null,
    limit: number,
  ): Promise<{ items: NoteableDoc[]; hasNext: boolean }> {
    const filter = await narrowed(given);
    const parts: { filter: Filter; sort: typeof BY_POSITION | typeof BY_ID }[] = [];
    if (after === null || after.relativePosition !== null) {
      const positioned = positionedIn(filter, scope);
      const from = after?.relativePosition;
      parts.push({
        filter:
          after === null
            ? positioned
            : {
                $and: [
                  ...andOf(positioned),
                  // The range seeks the index to the cursor's position; the $or leaves out what precedes it
                  // at that position.
                  { relativePosition: { $gte: from } },
                  { $or: [{ relativePosition: { $gt: from } }, { _id: { $gt: after.id } }] },
                ],
              },
        sort: BY_POSITION,
      });
    }
    const blank = unpositioned(filter);
    parts.push({
      filter:
        after !== null && after.relativePosition === null
          ? { $and: [...andOf(blank), { _id: { $gt: after.id } }] }
          : blank,
      sort: BY_ID,
    });
    const found = await findAcrossParts<NoteableDoc>(noteables, parts, 0, limit + 1);
    return { items: found.slice(0, limit), hasNext: found.length > limit };
  }

  return { page, pageAfter };
}

export type BoardColumnsStore = ReturnType<typeof createBoardColumnsStore>;
