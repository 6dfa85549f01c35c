import type { Connection, Model } from 'mongoose';
import { Schema } from 'mongoose';
import { DOMAIN_EVENT_TYPES, DURABLES, boardDefinedData, type BoardDefinedData } from '@gl/contracts';
import { defineModel, documentSchema, eventData, type Subscription } from '@gl/service-kit';

/**
 * Discussions' copy of board definitions (published by the boards service as `gl.boards.board.defined`):
 * what a board's scope and lists select, so the issues of a list are one query here and a card moves in
 * one step, without asking the boards service.
 */
export interface BoardListCopy {
  id: number;
  kind: 'label' | 'milestone' | 'iteration' | 'assignee';
  targetId: number;
  labelTitle: string | null;
}

export interface BoardCopyDoc {
  /** The board's id. */
  _id: number;
  /** A group board's group, or a project board's project (the other null). */
  groupId: number | null;
  projectId?: number | null;
  revision: number;
  deleted: boolean;
  milestoneId: number | null;
  assigneeId: number | null;
  labels: string[];
  weight: number | null;
  lists: BoardListCopy[];
  hideBacklogList: boolean;
  hideClosedList: boolean;
}

export function createBoardCopiesModel(connection: Connection): Model<BoardCopyDoc> {
  const list = new Schema<BoardListCopy>(
    { id: Number, kind: String, targetId: Number, labelTitle: { type: String, default: null } },
    { _id: false },
  );
  const schema = documentSchema<BoardCopyDoc>({
    _id: Number,
    groupId: { type: Number, default: null },
    projectId: { type: Number, default: null },
    revision: Number,
    deleted: Boolean,
    milestoneId: { type: Number, default: null },
    assigneeId: { type: Number, default: null },
    labels: [String],
    weight: { type: Number, default: null },
    lists: [list],
    hideBacklogList: Boolean,
    hideClosedList: Boolean,
  });
  return defineModel(connection, 'BoardCopy', schema, 'boards');
}

/** Reads of the copy: a board of the group or project that still exists (else null: 404 for the caller). */
export function createBoardCopies(model: Model<BoardCopyDoc>) {
  return {
    async find(
      parent: { kind: 'group' | 'project'; id: number },
      boardId: number,
    ): Promise<BoardCopyDoc | null> {
      const board = await model.findById(boardId).lean<BoardCopyDoc>();
      if (!board || board.deleted) return null;
      const owner = parent.kind === 'group' ? board.groupId : board.projectId;
      return owner === parent.id ? board : null;
    },

    /**
     * Keeps the newest definition: the write applies only over an older revision (or none), so
     * redelivered and out-of-order events change nothing. A deleted board stays as a tombstone.
     */
    async apply(data: BoardDefinedData): Promise<void> {
      const { boardId, ...definition } = data;
      try {
        await model.updateOne(
          { _id: boardId, revision: { $lt: data.revision } },
          { $set: definition },
          { upsert: true },
        );
      } catch (err) {
        // The upsert met a stored newer revision (duplicate _id): nothing to do.
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    },
  };
}

export type BoardCopies = ReturnType<typeof createBoardCopies>;

export function boardsProjection(copies: BoardCopies): Subscription {
  const { boardDefined } = DOMAIN_EVENT_TYPES.boards;
  return {
    durable: DURABLES.discussionsBoards,
    filterSubjects: [boardDefined],
    async handle(event) {
      await copies.apply(eventData(boardDefinedData, event));
    },
  };
}
