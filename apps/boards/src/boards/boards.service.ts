import type { z } from 'zod';
import type { NamespaceContext, updateBoardBody } from '@gl/contracts';
import { ModelError, NotFoundError, type Counters, type Outbox } from '@gl/service-kit';
import { createBoardParents } from './board-parents';
import type { BoardDoc, BoardParent, BoardsModels, ListItem, ListKind } from '../boards.models';

export type { BoardDoc, BoardParent };
import { createBoardsStore, type BoardSettings, type BoardsStore } from './boards.store';
import { createIterationsService } from '../iterations/iterations.service';
import { createIterationsStore, type IterationsStore } from '../iterations/iterations.store';
import type { ProjectLabelsStore } from '../labels/project-labels.store';
import { createLabelsStore, type LabelsStore } from '../labels/labels.store';
import type { ProjectMilestonesStore } from '../milestones/project-milestones.store';
import { moveItem, removeItem } from './list-order';
import { createMilestonesStore, type MilestonesStore } from '../milestones/milestones.store';
import type { Referenced } from './boards.presenter';
import { createUsersStore, type UsersStore } from '../users/users.store';

const DEFAULT_BOARD_NAME = 'Development';
/** Label::DEFAULT_COLOR: the color of a label a board scope creates by its title. */
const DEFAULT_LABEL_COLOR = '#6699cc';
/** Milestone::Predefined::ALL ids (Timebox None 0, Any -1, Upcoming -2, Started -3): stored as they are. */
const PREDEFINED_MILESTONE_IDS = new Set([0, -1, -2, -3]);
/** Longest label title (Label validates the title's length). */
const LABEL_TITLE_LIMIT = 255;

/** What a board update asks for, as the API names it (scoping names labels, not ids). */
export type BoardChanges = Omit<z.infer<typeof updateBoardBody>, 'board_id'>;

export const LIST_TARGETS = ['label_id', 'milestone_id', 'iteration_id', 'assignee_id'] as const;
export type ListTarget = (typeof LIST_TARGETS)[number];

const TARGET_NAMES: Record<ListTarget, string> = {
  label_id: 'Label',
  milestone_id: 'Milestone',
  iteration_id: 'Iteration',
  assignee_id: 'Assignee',
};
/** The model attribute GitLab's uniqueness validation names for a duplicate list. */
const DUPLICATE_NAMES: Record<ListKind, string> = {
  label: 'Label',
  milestone: 'Milestone',
  iteration: 'Iteration',
  assignee: 'User',
};

/** The stores of the boards database, made once per app (app.ts) and shared by its services. */
export interface BoardsStores {
  boards: BoardsStore;
  labels: LabelsStore;
  milestones: MilestonesStore;
  users: UsersStore;
  iterations: IterationsStore;
  projectLabels: ProjectLabelsStore;
  projectMilestones: ProjectMilestonesStore;
}

/** The project labels and milestones stores, made with their own models (app.ts). */
export type ProjectStores = Pick<BoardsStores, 'projectLabels' | 'projectMilestones'>;

export function createBoardsStores(
  models: BoardsModels,
  counters: Counters,
  outbox: Outbox,
  projectStores: ProjectStores,
): BoardsStores {
  return {
    ...projectStores,
    boards: createBoardsStore(models.boards, counters),
    labels: createLabelsStore(models.labels, counters, outbox),
    milestones: createMilestonesStore(models.milestones, counters),
    users: createUsersStore(models.users),
    iterations: createIterationsStore(models.iterations, models.cadences, counters),
  };
}

/**
 * Boards and their lists, of groups and projects (`board_parent`): GitLab's Boards::* and Boards::Lists::*
 * services over the boards store.
 */
export function createBoardsService(stores: BoardsStores) {
  const { boards, users } = stores;
  const iterations = createIterationsService(stores.iterations);
  const parents = createBoardParents(stores);

  /** The board every group has on the free tier, created on first access by any number of callers at once. */
  async function ensureDefaultBoard(groupId: number): Promise<void> {
    await boards.ensureOne(groupId, DEFAULT_BOARD_NAME);
  }

  async function create(parent: BoardParent, name: string): Promise<BoardDoc> {
    return boards.create(parent, name);
  }

  async function page(
    parent: BoardParent,
    skip: number,
    limit: number,
  ): Promise<{ docs: BoardDoc[]; total: number }> {
    return boards.page(parent, skip, limit);
  }

  /** `board_parent.boards.find(id)`: 404 "Not found" when missing or another parent's. */
  async function get(parent: BoardParent, boardId: number): Promise<BoardDoc> {
    const board = await boards.find(parent, boardId);
    if (!board) throw new NotFoundError();
    return board;
  }

  /**
   * Boards::UpdateService with EE's filters (ee/app/services/ee/boards/base_service.rb). `scoped` says
   * whether the parent has scoped_issue_board: without it the scope parameters are not permitted and are
   * dropped (permitted_params), and the rest of the update applies.
   */
  async function update(
    ns: NamespaceContext,
    board: BoardDoc,
    changes: BoardChanges,
    scoped: boolean,
  ): Promise<BoardDoc> {
    const settings: BoardSettings = {};
    if (changes.name !== undefined) {
      if (changes.name.trim() === '') throw ModelError.fields({ name: ["can't be blank"] });
      settings.name = changes.name;
    }
    if (changes.hide_backlog_list !== undefined) settings.hideBacklogList = changes.hide_backlog_list;
    if (changes.hide_closed_list !== undefined) settings.hideClosedList = changes.hide_closed_list;
    if (scoped) Object.assign(settings, await scopeSettings(ns, changes));
    const updated = await boards.update(board._id, settings);
    if (!updated) throw new NotFoundError();
    return updated;
  }

  /** The scope a board update asks for, after filter_assignee, filter_labels and filter_milestone. */
  async function scopeSettings(ns: NamespaceContext, changes: BoardChanges): Promise<BoardSettings> {
    const settings: BoardSettings = {};
    if (changes.weight !== undefined) settings.weight = changes.weight;
    // filter_assignee: User.find_by(id:) — an unknown id (or none) clears the assignee.
    if (changes.assignee_id !== undefined) {
      const id = changes.assignee_id;
      settings.assigneeId = id !== null && (await users.exists(id)) ? id : null;
    }
    // filter_milestone: blank clears, a predefined id is kept as is, one of the parent's milestones (a
    // project's own or its groups', a group's or its ancestors') is set, and any other id is dropped: the
    // board keeps its milestone.
    if (changes.milestone_id !== undefined) {
      const id = changes.milestone_id;
      if (id === null || PREDEFINED_MILESTONE_IDS.has(id)) settings.milestoneId = id;
      else if (await parents.milestoneUsable(ns, id)) settings.milestoneId = id;
    }
    // filter_labels: titles found among the parent's labels, else created in the parent.
    if (changes.labels !== undefined) {
      const names = [...new Set(changes.labels.map((name) => name.trim()))].filter(
        (name) => name !== '' && [...name].length <= LABEL_TITLE_LIMIT,
      );
      settings.labelIds = names.length
        ? await parents.findOrCreateLabels(ns, names, DEFAULT_LABEL_COLOR)
        : [];
    }
    return settings;
  }

  async function remove(board: BoardDoc): Promise<void> {
    await boards.remove(board._id);
  }

  /** Boards::Lists::CreateService: a list of a target this parent's boards may use, once per board. */
  async function addList(
    ns: NamespaceContext,
    board: BoardDoc,
    key: ListTarget,
    targetId: number,
  ): Promise<{ item: ListItem; position: number }> {
    const target = await targetOf(ns, key, targetId);
    const id = await boards.nextListId();
    return boards.changeLists(board._id, (current) => {
      if (current.some((l) => l.kind === target.kind && l.targetId === target.targetId)) {
        throw ModelError.error(`${DUPLICATE_NAMES[target.kind]} has already been taken`);
      }
      const item: ListItem = { id, ...target };
      return { lists: [...current, item], result: { item, position: current.length } };
    });
  }

  /** Boards::Lists::MoveService. */
  async function moveList(board: BoardDoc, listId: number, position: number): Promise<ListItem> {
    return boards.changeLists(board._id, (current) => {
      const from = current.findIndex((l) => l.id === listId);
      if (from < 0) throw new NotFoundError();
      const next = moveItem(current, from, position);
      if (!next) throw ModelError.error('List could not be moved!');
      return { lists: next, result: next[position]! };
    });
  }

  /** Boards::Lists::DestroyService: the lists after it move up by one. */
  async function removeList(board: BoardDoc, listId: number): Promise<void> {
    await boards.changeLists(board._id, (current) => {
      const index = current.findIndex((l) => l.id === listId);
      if (index < 0) throw new NotFoundError();
      return { lists: removeItem(current, index), result: undefined };
    });
  }

  /** The list's target, usable by this parent's boards; GitLab's "<Type> not found" otherwise. */
  async function targetOf(
    ns: NamespaceContext,
    key: ListTarget,
    id: number,
  ): Promise<{ kind: ListKind; targetId: number }> {
    const notFound = ModelError.error(`${TARGET_NAMES[key]} not found`);
    if (key === 'label_id') {
      if (!(await parents.labelUsable(ns, id))) throw notFound;
      return { kind: 'label', targetId: id };
    }
    if (key === 'milestone_id') {
      if (!(await parents.milestoneUsable(ns, id))) throw notFound;
      return { kind: 'milestone', targetId: id };
    }
    if (key === 'assignee_id') {
      if (!(await users.exists(id))) throw notFound;
      return { kind: 'assignee', targetId: id };
    }
    if (!(await iterations.usable(ns, id))) throw notFound;
    return { kind: 'iteration', targetId: id };
  }

  /** Removes the lists of a deleted label (or milestone) from every board, closing the gaps. */
  async function forgetTarget(kind: ListKind, targetId: number): Promise<void> {
    for (const board of await boards.withListTarget(targetId)) {
      await boards.changeLists(board._id, (lists) => ({
        lists: lists.filter((l) => !(l.kind === kind && l.targetId === targetId)),
        result: undefined,
      }));
    }
    if (kind === 'label') await boards.forgetScopeLabel(targetId);
  }

  /**
   * Labels::PromoteService#update_issue_board_lists: the lists of the merged labels take the promoted one
   * (a board that has a list of it already keeps that one), and so do the boards' scopes.
   */
  async function retargetLabels(fromIds: number[], toId: number): Promise<void> {
    for (const from of fromIds) {
      for (const board of await boards.withListTarget(from)) {
        await boards.changeLists(board._id, (lists) => {
          const has = lists.some((l) => l.kind === 'label' && l.targetId === toId);
          const merged = lists.flatMap((l) => {
            if (l.kind !== 'label' || l.targetId !== from) return [l];
            return has ? [] : [{ ...l, targetId: toId }];
          });
          return { lists: merged, result: undefined };
        });
      }
      await boards.replaceScopeLabel(from, toId);
    }
  }

  /** Loads the labels, milestones and users the given boards refer to. */
  async function references(shown: BoardDoc[]): Promise<Referenced> {
    const labelIds = new Set<number>();
    const milestoneIds = new Set<number>();
    const iterationIds = new Set<number>();
    const userIds = new Set<number>();
    for (const board of shown) {
      board.labelIds.forEach((id) => labelIds.add(id));
      if (board.milestoneId !== null && board.milestoneId > 0) milestoneIds.add(board.milestoneId);
      if (board.assigneeId !== null) userIds.add(board.assigneeId);
      for (const list of board.lists) {
        if (list.kind === 'label') labelIds.add(list.targetId);
        if (list.kind === 'milestone') milestoneIds.add(list.targetId);
        if (list.kind === 'iteration') iterationIds.add(list.targetId);
        if (list.kind === 'assignee') userIds.add(list.targetId);
      }
    }
    const [labelDocs, milestoneDocs, iterationDocs, userDocs] = await Promise.all([
      parents.labelsByIds([...labelIds]),
      parents.milestonesByIds([...milestoneIds]),
      stores.iterations.byIds([...iterationIds]).then(iterations.sequenced),
      users.byIds([...userIds]),
    ]);
    return {
      labels: new Map(labelDocs.map((l) => [l._id, l])),
      milestones: new Map(milestoneDocs.map((m) => [m._id, m])),
      iterations: new Map(iterationDocs.map((i) => [i._id, i])),
      users: new Map(userDocs.map((u) => [u._id, u])),
    };
  }

  return {
    ensureDefaultBoard,
    create,
    page,
    get,
    update,
    remove,
    addList,
    moveList,
    removeList,
    forgetTarget,
    retargetLabels,
    references,
  };
}

export type BoardsService = ReturnType<typeof createBoardsService>;
