import type { Model } from 'mongoose';
import {
  ModelError,
  NotFoundError,
  isDuplicateKeyError,
  totalFromPage,
  type Counters,
} from '@gl/service-kit';
import type { BoardDoc, BoardParent, ListItem } from '../boards.models';

const MAX_CAS_ATTEMPTS = 50;

export type BoardSettings = Partial<
  Pick<
    BoardDoc,
    'name' | 'hideBacklogList' | 'hideClosedList' | 'milestoneId' | 'assigneeId' | 'labelIds' | 'weight'
  >
>;

/** Runs tasks for one key one after another; different keys run in parallel. */
class KeyedQueue {
  private readonly tails = new Map<number, Promise<unknown>>();

  run<T>(key: number, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.catch(() => undefined);
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}

/** The filter of a parent's boards (served by the `parentKind, parentId, _id` index). */
function ofParent(parent: BoardParent) {
  return { parentKind: parent.kind, parentId: parent.id };
}

/**
 * Boards and their lists, of groups and projects alike. A board's movable lists live in the board document, in position order, so every
 * list change is one single-document write: changes to one board are queued in-process and each write is a
 * compare-and-set on `version`, which also keeps several processes from losing each other's changes.
 */
export function createBoardsStore(boards: Model<BoardDoc>, counters: Counters) {
  const queue = new KeyedQueue();

  /**
   * Creates the group's board named `name` unless it has one; any number of callers at once create one
   * board, as the unique `slot` `default:<groupId>` lets only the first insert in.
   */
  async function ensureOne(groupId: number, name: string): Promise<void> {
    const group: BoardParent = { kind: 'group', id: groupId };
    if (await boards.exists(ofParent(group))) return;
    const slot = `default:${groupId}`;
    if (await boards.exists({ slot })) return;
    const id = await counters.next('board');
    try {
      await boards.create(newBoard(id, group, name, slot));
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  async function create(parent: BoardParent, name: string): Promise<BoardDoc> {
    const id = await counters.next('board');
    const doc = newBoard(id, parent, name, `board:${id}`);
    await boards.create(doc);
    return doc;
  }

  async function page(
    parent: BoardParent,
    skip: number,
    limit: number,
  ): Promise<{ docs: BoardDoc[]; total: number }> {
    // The driver's cursor, not a mongoose query: a lean read casts nothing here (the filter is a string
    // and a number), and the query object's building was a tenth of the service's CPU on GET .../boards.
    const byParent = ofParent(parent) as unknown as Parameters<typeof boards.collection.find>[0];
    const docs = (await boards.collection
      .find(byParent, { sort: { _id: 1 }, skip, limit })
      .toArray()) as unknown as BoardDoc[];
    const total =
      totalFromPage({ skip, perPage: limit }, docs.length) ?? (await boards.countDocuments(ofParent(parent)));
    return { docs, total };
  }

  async function find(parent: BoardParent, boardId: number): Promise<BoardDoc | null> {
    return boards.findOne({ _id: boardId, ...ofParent(parent) }).lean<BoardDoc>();
  }

  async function update(boardId: number, settings: BoardSettings): Promise<BoardDoc | null> {
    return boards.findOneAndUpdate({ _id: boardId }, { $set: settings }, { new: true }).lean<BoardDoc>();
  }

  async function remove(boardId: number): Promise<void> {
    await boards.deleteOne({ _id: boardId });
  }

  async function nextListId(): Promise<number> {
    return counters.next('list');
  }

  /**
   * Applies `change` to the board's current lists and stores the result if nobody changed them meanwhile;
   * retries on a lost race. `change` throws to refuse.
   */
  async function changeLists<T>(
    boardId: number,
    change: (lists: ListItem[]) => { lists: ListItem[]; result: T },
  ): Promise<T> {
    return queue.run(boardId, async () => {
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
        const current = await boards
          .findOne({ _id: boardId })
          .select({ lists: 1, version: 1 })
          .lean<Pick<BoardDoc, '_id' | 'lists' | 'version'>>();
        if (!current) throw new NotFoundError();
        const { lists, result } = change(
          current.lists.map((l) => ({ id: l.id, kind: l.kind, targetId: l.targetId })),
        );
        const written = await boards.updateOne(
          { _id: boardId, version: current.version },
          { $set: { lists, version: current.version + 1 } },
        );
        if (written.modifiedCount === 1) return result;
      }
      throw ModelError.error('List could not be saved!', 409);
    });
  }

  /** Boards with a list of this target (label, milestone or user id). */
  async function withListTarget(targetId: number): Promise<BoardDoc[]> {
    return boards.find({ 'lists.targetId': targetId }).lean<BoardDoc[]>();
  }

  /** Drops a deleted label from every board's scope. */
  async function forgetScopeLabel(labelId: number): Promise<void> {
    await boards.updateMany({ labelIds: labelId }, { $pull: { labelIds: labelId } });
  }

  /** Puts `toId` in place of `fromId` in every board's scope. */
  async function replaceScopeLabel(fromId: number, toId: number): Promise<void> {
    await boards.updateMany({ labelIds: fromId }, { $addToSet: { labelIds: toId } });
    await boards.updateMany({ labelIds: fromId }, { $pull: { labelIds: fromId } });
  }

  return {
    ensureOne,
    create,
    page,
    find,
    update,
    remove,
    nextListId,
    changeLists,
    withListTarget,
    forgetScopeLabel,
    replaceScopeLabel,
  };
}

export type BoardsStore = ReturnType<typeof createBoardsStore>;

function newBoard(id: number, parent: BoardParent, name: string, slot: string): BoardDoc {
  return {
    _id: id,
    parentKind: parent.kind,
    parentId: parent.id,
    ...(parent.kind === 'group' ? { groupId: parent.id } : {}),
    slot,
    name,
    hideBacklogList: false,
    hideClosedList: false,
    milestoneId: null,
    assigneeId: null,
    labelIds: [],
    weight: null,
    lists: [],
    version: 0,
    createdAt: new Date(),
  };
}
