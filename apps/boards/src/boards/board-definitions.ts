import type { Connection, Model } from 'mongoose';
import { DOMAIN_EVENT_TYPES, type BoardDefinedData } from '@gl/contracts';
import {
  addOutboxFields,
  createEvent,
  defineModel,
  documentSchema,
  isDuplicateKeyError,
  pushEvents,
  withEvents,
  type Outbox,
} from '@gl/service-kit';
import type { BoardDoc, BoardsModels, ListKind } from '../boards.models';
import type { BoardsService } from './boards.service';
import type { LabelsService } from '../labels/labels.service';
import type { ProjectLabelsService } from '../labels/project-labels.service';
import type { ProjectLabelDoc } from '../labels/project-labels.model';
import { SERVICE_PRODUCER } from '../milestones/milestone-writes';

/**
 * The last definition of each board published on the bus (`gl.boards.board.defined`), with its revision.
 * Other services keep copies of board definitions (discussions serves a board list's issues and moves
 * cards between lists); this document is where the events are written, through the outbox, so a
 * definition is published once its write succeeded.
 */
export interface BoardDefinitionDoc {
  /** The board's id. */
  _id: number;
  revision: number;
}

const MAX_ATTEMPTS = 50;

export function createBoardDefinitionsModel(connection: Connection): Model<BoardDefinitionDoc> {
  const schema = documentSchema<BoardDefinitionDoc>({ _id: Number, revision: Number });
  addOutboxFields(schema);
  return defineModel(connection, 'BoardDefinition', schema, 'board_definitions');
}

/**
 * Publishes a board's definition as it is now. The revision is read before the board and written by
 * compare-and-set: a publication that read the board before another's change either loses the race (and
 * reads again) or is followed by the other's, so the highest revision always carries a definition read
 * after the last change to the board, in every process.
 */
export function createBoardDefinitions(
  models: Pick<BoardsModels, 'boards' | 'labels'>,
  definitions: Model<BoardDefinitionDoc>,
  outbox: Pick<Outbox, 'kick'>,
  projectLabels: Model<ProjectLabelDoc>,
) {
  /** Label titles by id: group and project labels share one id sequence (project-labels.model.ts). */
  async function labelTitles(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const [own, projects] = await Promise.all([
      models.labels
        .find({ _id: { $in: ids } })
        .select({ name: 1 })
        .lean<{ _id: number; name: string }[]>(),
      projectLabels
        .find({ _id: { $in: ids } })
        .select({ name: 1 })
        .lean<{ _id: number; name: string }[]>(),
    ]);
    return new Map([...own, ...projects].map((l) => [l._id, l.name]));
  }

  async function definitionOf(boardId: number, revision: number): Promise<BoardDefinedData | null> {
    const board = await models.boards.findById(boardId).lean<BoardDoc>();
    if (!board) return null;
    const labelIds = [
      ...board.labelIds,
      ...board.lists.filter((l) => l.kind === 'label').map((l) => l.targetId),
    ];
    const titles = await labelTitles(labelIds);
    return {
      boardId: board._id,
      ...parentFields(publishedParent(board)),
      revision,
      deleted: false,
      milestoneId: board.milestoneId ?? null,
      assigneeId: board.assigneeId ?? null,
      labels: board.labelIds.flatMap((id) => titles.get(id) ?? []),
      weight: board.weight ?? null,
      lists: board.lists.map((l) => ({
        id: l.id,
        kind: l.kind,
        targetId: l.targetId,
        labelTitle: l.kind === 'label' ? (titles.get(l.targetId) ?? null) : null,
      })),
      hideBacklogList: board.hideBacklogList,
      hideClosedList: board.hideClosedList,
    };
  }

  async function publishOnce(boardId: number, parent: BoardParent): Promise<boolean> {
    const current = await definitions.findById(boardId).select({ revision: 1 }).lean<BoardDefinitionDoc>();
    const previous = current?.revision ?? 0;
    const revision = previous + 1;
    const data: BoardDefinedData = (await definitionOf(boardId, revision)) ?? {
      boardId,
      ...parentFields(parent),
      revision,
      deleted: true,
      milestoneId: null,
      assigneeId: null,
      labels: [],
      weight: null,
      lists: [],
      hideBacklogList: false,
      hideClosedList: false,
    };
    const event = createEvent(
      { producer: SERVICE_PRODUCER, correlationId: null },
      {
        type: DOMAIN_EVENT_TYPES.boards.boardDefined,
        actor: null,
        groupId: data.groupId,
        projectId: data.projectId,
        data,
      },
    );
    if (!current) {
      try {
        await definitions.create(withEvents({ _id: boardId, revision }, [event]));
        return true;
      } catch (err) {
        if (isDuplicateKeyError(err)) return false;
        throw err;
      }
    }
    const written = await definitions.updateOne(
      { _id: boardId, revision: previous },
      pushEvents({ $set: { revision } }, [event]),
    );
    return written.modifiedCount === 1;
  }

  /** Publishes the board's definition (or its deletion); retried while other publications race it. */
  async function publish(boardId: number, parent: BoardParent): Promise<void> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (await publishOnce(boardId, parent)) {
        outbox.kick(definitions);
        return;
      }
    }
    throw new Error(`board ${boardId}: definition could not be published`);
  }

  /** Boards that use a label (scope or list) or have a list of a milestone, user or iteration. */
  async function boardsUsing(targetId: number, kind: ListKind | null): Promise<BoardDoc[]> {
    const lists = { 'lists.targetId': targetId };
    const filter = kind === 'label' ? { $or: [lists, { labelIds: targetId }] } : lists;
    const found = await models.boards.find(filter).lean<BoardDoc[]>();
    // Lists of other kinds may have the same target id (a milestone's and a label's ids are unrelated).
    return found.filter(
      (b) =>
        kind === null ||
        b.lists.some((l) => l.kind === kind && l.targetId === targetId) ||
        (kind === 'label' && b.labelIds.includes(targetId)),
    );
  }

  /** Publishes a board no definition was published for yet (the default board of a group). */
  async function publishIfNew(boardId: number, groupId: number): Promise<void> {
    if (await definitions.exists({ _id: boardId })) return;
    await publish(boardId, { kind: 'group', id: groupId });
  }

  /**
   * Publishes every board that has no definition yet (boards made before definitions were published), in
   * id order, a page at a time; `stopped` ends it early. Replicas doing it at once only publish some
   * board twice, which the consumers' revisions absorb.
   */
  async function backfill(stopped: () => boolean): Promise<number> {
    let published = 0;
    let after = 0;
    while (!stopped()) {
      const page = await models.boards
        .find({ _id: { $gt: after } })
        .sort({ _id: 1 })
        .limit(100)
        .select({ _id: 1, groupId: 1, parentKind: 1, parentId: 1 })
        .lean<Pick<BoardDoc, '_id' | 'groupId' | 'parentKind' | 'parentId'>[]>();
      if (page.length === 0) break;
      const known = await definitions
        .find({ _id: { $in: page.map((b) => b._id) } })
        .select({ _id: 1 })
        .lean<Pick<BoardDefinitionDoc, '_id'>[]>();
      const done = new Set(known.map((d) => d._id));
      for (const board of page) {
        if (done.has(board._id) || stopped()) continue;
        await publish(board._id, publishedParent(board));
        published++;
      }
      after = page[page.length - 1]!._id;
    }
    return published;
  }

  return { publish, publishIfNew, boardsUsing, backfill };
}

export type BoardDefinitions = ReturnType<typeof createBoardDefinitions>;

/** Whose board a definition is: a group's or a project's. */
interface BoardParent {
  kind: 'group' | 'project';
  id: number;
}

/** A board's parent (group boards written before `parentKind` name their group only). */
function publishedParent(board: Pick<BoardDoc, 'parentKind' | 'parentId' | 'groupId'>): BoardParent {
  return board.parentKind === 'project'
    ? { kind: 'project', id: board.parentId }
    : { kind: 'group', id: board.groupId ?? board.parentId };
}

const parentFields = (parent: BoardParent) => ({
  groupId: parent.kind === 'group' ? parent.id : null,
  projectId: parent.kind === 'project' ? parent.id : null,
});

/**
 * The boards service with every change to a board's definition published after it: creation, scope
 * and settings, lists added, moved and removed, and targets forgotten with a deleted label or milestone.
 */
export function publishingBoards(boards: BoardsService, definitions: BoardDefinitions): BoardsService {
  const defaultsKnown = new Set<number>();
  async function republish(board: BoardDoc): Promise<void> {
    await definitions.publish(board._id, publishedParent(board));
  }
  return {
    ...boards,
    async ensureDefaultBoard(groupId) {
      await boards.ensureDefaultBoard(groupId);
      // Free-tier reads call this every time: the default board's definition is looked for once per
      // group and process, and published by whoever finds none.
      if (defaultsKnown.has(groupId)) return;
      const board = (await boards.page({ kind: 'group', id: groupId }, 0, 1)).docs[0];
      if (board) await definitions.publishIfNew(board._id, groupId);
      defaultsKnown.add(groupId);
    },
    async create(parent, name) {
      const board = await boards.create(parent, name);
      await republish(board);
      return board;
    },
    async update(ns, board, changes, scoped) {
      const updated = await boards.update(ns, board, changes, scoped);
      await republish(board);
      return updated;
    },
    async remove(board) {
      await boards.remove(board);
      await republish(board);
    },
    async addList(ns, board, key, targetId) {
      const added = await boards.addList(ns, board, key, targetId);
      await republish(board);
      return added;
    },
    async moveList(board, listId, position) {
      const moved = await boards.moveList(board, listId, position);
      await republish(board);
      return moved;
    },
    async removeList(board, listId) {
      await boards.removeList(board, listId);
      await republish(board);
    },
    async forgetTarget(kind, targetId) {
      const affected = await definitions.boardsUsing(targetId, kind);
      await boards.forgetTarget(kind, targetId);
      for (const board of affected) await republish(board);
    },
  };
}

/**
 * `updating` (a label's update, of either kind) and then the boards listing the label published again:
 * they carry label titles, and the update may have renamed it.
 */
async function republishedAfter<Label extends { _id: number }>(
  definitions: BoardDefinitions,
  updating: Promise<Label>,
): Promise<Label> {
  const updated = await updating;
  for (const board of await definitions.boardsUsing(updated._id, 'label')) {
    await definitions.publish(board._id, publishedParent(board));
  }
  return updated;
}

/** The group labels service with a renamed label's boards published again. */
export function publishingLabels(labels: LabelsService, definitions: BoardDefinitions): LabelsService {
  return {
    ...labels,
    update: (groupId, params) => republishedAfter(definitions, labels.update(groupId, params)),
  };
}

/** The project labels service with a renamed label's boards (the project's) published again. */
export function publishingProjectLabels(
  labels: ProjectLabelsService,
  definitions: BoardDefinitions,
): ProjectLabelsService {
  return { ...labels, update: (ns, params) => republishedAfter(definitions, labels.update(ns, params)) };
}
