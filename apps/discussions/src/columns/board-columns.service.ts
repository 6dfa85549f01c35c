import type { NoteablesStore } from '../noteables/noteables.store';
import type { BoardColumnsStore } from './board-columns.store';

export type { ColumnPage } from './board-columns.store';

/** A board column's pages along the column index, and the finder's read rule on one card. */
export function createBoardColumnsService(stores: {
  columns: BoardColumnsStore;
  noteables: Pick<NoteablesStore, 'countWhere'>;
}) {
  const { columns, noteables } = stores;
  return {
    page: columns.page,
    pageAfter: columns.pageAfter,
    /** Whether the filter selects the noteable (one indexed count, as a list's read rule is checked). */
    async selects(id: number, filter: Record<string, unknown>): Promise<boolean> {
      return (await noteables.countWhere({ $and: [{ _id: id }, filter] })) === 1;
    },
  };
}

export type BoardColumnsService = ReturnType<typeof createBoardColumnsService>;
