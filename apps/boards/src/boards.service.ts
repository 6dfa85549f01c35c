import { ModelError, NotFoundError, isDuplicateKeyError, type Counters } from '@gl/service-kit';
import type {
  BoardDoc,
  BoardsModels,
  LabelDoc,
  ListItem,
  ListKind,
  MilestoneDoc,
  UserDoc,
} from './boards.models';
import type { Referenced } from './presenters';

const DEFAULT_BOARD_NAME = 'Development';
const MAX_CAS_ATTEMPTS = 50;

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

export type BoardSettings = Partial<
  Pick<
    BoardDoc,
    'name' | 'hideBacklogList' | 'hideClosedList' | 'milestoneId' | 'assigneeId' | 'labelIds' | 'weight'
  >
>;

/**
 * Boards and their lists. A board's movable lists live in the board document, in position order, so every
 * list change is one single-document write: changes to one board are queued in-process and each write is a
 * compare-and-set on `version`, which also keeps several processes from losing each other's changes.
 */
export class BoardsService {
  private readonly queue = new KeyedQueue();

  constructor(
    private readonly models: BoardsModels,
    private readonly counters: Counters,
  ) {}

  /** The board every group has on the free tier, created on first access by any number of callers at once. */
  async ensureDefaultBoard(groupId: number): Promise<void> {
    if (await this.models.boards.exists({ groupId })) return;
    const slot = `default:${groupId}`;
    if (await this.models.boards.exists({ slot })) return;
    const id = await this.counters.next('board');
    try {
      await this.models.boards.create(this.newBoard(id, groupId, DEFAULT_BOARD_NAME, slot));
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
    }
  }

  async create(groupId: number, name: string): Promise<BoardDoc> {
    const id = await this.counters.next('board');
    const doc = this.newBoard(id, groupId, name, `board:${id}`);
    await this.models.boards.create(doc);
    return doc;
  }

  private newBoard(id: number, groupId: number, name: string, slot: string): BoardDoc {
    return {
      _id: id,
      groupId,
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

  async page(groupId: number, skip: number, limit: number): Promise<{ boards: BoardDoc[]; total: number }> {
    const [boards, total] = await Promise.all([
      this.models.boards.find({ groupId }).sort({ _id: 1 }).skip(skip).limit(limit).lean<BoardDoc[]>(),
      this.models.boards.countDocuments({ groupId }),
    ]);
    return { boards, total };
  }

  /** `board_parent.boards.find(id)`: 404 "Not found" when missing or in another group. */
  async get(groupId: number, boardId: number): Promise<BoardDoc> {
    const board = await this.models.boards.findOne({ _id: boardId, groupId }).lean<BoardDoc>();
    if (!board) throw new NotFoundError();
    return board;
  }

  async update(board: BoardDoc, settings: BoardSettings): Promise<BoardDoc> {
    const updated = await this.models.boards
      .findOneAndUpdate({ _id: board._id }, { $set: settings }, { new: true })
      .lean<BoardDoc>();
    if (!updated) throw new NotFoundError();
    return updated;
  }

  async remove(board: BoardDoc): Promise<void> {
    await this.models.boards.deleteOne({ _id: board._id });
  }

  /**
   * Applies `change` to the board's current lists and stores the result if nobody changed them meanwhile;
   * retries on a lost race. `change` throws to refuse.
   */
  async mutateLists<T>(
    board: BoardDoc,
    change: (lists: ListItem[]) => { lists: ListItem[]; result: T },
  ): Promise<T> {
    return this.queue.run(board._id, async () => {
      for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
        const current = await this.models.boards
          .findOne({ _id: board._id })
          .select({ lists: 1, version: 1 })
          .lean<Pick<BoardDoc, '_id' | 'lists' | 'version'>>();
        if (!current) throw new NotFoundError();
        const { lists, result } = change(
          current.lists.map((l) => ({ id: l.id, kind: l.kind, targetId: l.targetId })),
        );
        const written = await this.models.boards.updateOne(
          { _id: board._id, version: current.version },
          { $set: { lists, version: current.version + 1 } },
        );
        if (written.modifiedCount === 1) return result;
      }
      throw ModelError.error('List could not be saved!', 409);
    });
  }

  async nextListId(): Promise<number> {
    return this.counters.next('list');
  }

  /** Removes the lists of a deleted label (or milestone) from every board, closing the gaps. */
  async forgetTarget(kind: ListKind, targetId: number): Promise<void> {
    const boards = await this.models.boards.find({ 'lists.targetId': targetId }).lean<BoardDoc[]>();
    for (const board of boards) {
      await this.mutateLists(board, (lists) => ({
        lists: lists.filter((l) => !(l.kind === kind && l.targetId === targetId)),
        result: undefined,
      }));
    }
    if (kind === 'label')
      await this.models.boards.updateMany({ labelIds: targetId }, { $pull: { labelIds: targetId } });
  }

  /** Loads the labels, milestones and users the given boards refer to. */
  async references(boards: BoardDoc[]): Promise<Referenced> {
    const labelIds = new Set<number>();
    const milestoneIds = new Set<number>();
    const userIds = new Set<number>();
    for (const board of boards) {
      board.labelIds.forEach((id) => labelIds.add(id));
      if (board.milestoneId !== null) milestoneIds.add(board.milestoneId);
      if (board.assigneeId !== null) userIds.add(board.assigneeId);
      for (const list of board.lists) {
        if (list.kind === 'label') labelIds.add(list.targetId);
        if (list.kind === 'milestone') milestoneIds.add(list.targetId);
        if (list.kind === 'assignee') userIds.add(list.targetId);
      }
    }
    const [labels, milestones, users] = await Promise.all([
      labelIds.size ? this.models.labels.find({ _id: { $in: [...labelIds] } }).lean<LabelDoc[]>() : [],
      milestoneIds.size
        ? this.models.milestones.find({ _id: { $in: [...milestoneIds] } }).lean<MilestoneDoc[]>()
        : [],
      userIds.size ? this.models.users.find({ _id: { $in: [...userIds] } }).lean<UserDoc[]>() : [],
    ]);
    return {
      labels: new Map(labels.map((l) => [l._id, l])),
      milestones: new Map(milestones.map((m) => [m._id, m])),
      users: new Map(users.map((u) => [u._id, u])),
    };
  }
}
