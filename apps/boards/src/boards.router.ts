import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  ACCESS_LEVELS,
  createBoardBody,
  createListBody,
  integerParam,
  moveListBody,
  updateBoardBody,
  type InternalContext,
  type NamespaceContext,
} from '@gl/contracts';
import {
  ForbiddenError,
  ModelError,
  NotFoundError,
  accessLevelOf,
  collectParams,
  isHigherTier,
  parseParams,
  readPageRequest,
  requireExactlyOne,
  requireUser,
  sendJson,
  sendNoContent,
  setPaginationHeaders,
} from '@gl/service-kit';
import { groupAndAncestors, groupWriter, readableGroup } from './boards.access';
import type { BoardDoc, BoardsModels, ListItem, ListKind } from './boards.models';
import type { BoardSettings, BoardsService } from './boards.service';
import { moveItem, removeItem } from './list-order';
import { presentBoard, presentList, type PresentContext } from './presenters';

const boardIdParams = z.object({ board_id: integerParam });
const listIdParams = z.object({ board_id: integerParam, list_id: integerParam });

/** Board scoping (scoped_issue_board) parameters, refused on the free tier. */
const SCOPE_PARAMS = ['assignee_id', 'milestone_id', 'labels', 'weight'] as const;
const LIST_TARGETS = ['label_id', 'milestone_id', 'iteration_id', 'assignee_id'] as const;
const TARGET_NAMES: Record<(typeof LIST_TARGETS)[number], string> = {
  label_id: 'Label',
  milestone_id: 'Milestone',
  iteration_id: 'Iteration',
  assignee_id: 'Assignee',
};
/** The model attribute GitLab's uniqueness validation names for a duplicate list. */
const DUPLICATE_NAMES: Record<ListKind, string> = {
  label: 'Label',
  milestone: 'Milestone',
  assignee: 'User',
};

function presentContext(ctx: InternalContext, group: NamespaceContext): PresentContext {
  return { group, externalUrl: ctx.externalUrl };
}

export function createBoardsRouter(models: BoardsModels, boards: BoardsService): Router {
  const router = Router();

  /** A signed-in reader of the group (401, then 404); on free, the group's board exists from then on. */
  async function reader(req: Request): Promise<NamespaceContext> {
    requireUser(req.ctx);
    const ns = readableGroup(req.ctx);
    if (!isHigherTier(req.ctx)) await boards.ensureDefaultBoard(ns.id);
    return ns;
  }

  async function writer(req: Request, minimum: number): Promise<NamespaceContext> {
    const { ns } = groupWriter(req.ctx, minimum);
    if (!isHigherTier(req.ctx)) await boards.ensureDefaultBoard(ns.id);
    return ns;
  }

  async function boardOf(req: Request, ns: NamespaceContext): Promise<BoardDoc> {
    const { board_id } = parseParams(boardIdParams, req.params);
    return boards.get(ns.id, board_id);
  }

  async function sendBoard(
    req: Request,
    res: Parameters<typeof sendJson>[0],
    status: number,
    board: BoardDoc,
    ns: NamespaceContext,
  ) {
    const refs = await boards.references([board]);
    sendJson(res, status, presentBoard(board, refs, presentContext(req.ctx, ns), true));
  }

  router.get('/groups/:id/boards', async (req, res) => {
    const ns = await reader(req);
    const page = readPageRequest(req.query);
    const { boards: docs, total } = await boards.page(ns.id, page.skip, page.perPage);
    const refs = await boards.references(docs);
    setPaginationHeaders(req, res, page, total);
    const pc = presentContext(req.ctx, ns);
    sendJson(
      res,
      200,
      docs.map((b) => presentBoard(b, refs, pc, false)),
    );
  });

  router.get('/groups/:id/boards/:board_id', async (req, res) => {
    const ns = await reader(req);
    const board = await boardOf(req, ns);
    const refs = await boards.references([board]);
    sendJson(res, 200, presentBoard(board, refs, presentContext(req.ctx, ns), false));
  });

  router.post('/groups/:id/boards', async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    if (!isHigherTier(req.ctx)) throw new ForbiddenError();
    const params = parseParams(createBoardBody, collectParams(req));
    const board = await boards.create(ns.id, params.name);
    await sendBoard(req, res, 201, board, ns);
  });

  router.put('/groups/:id/boards/:board_id', async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    const all = collectParams(req);
    const params = parseParams(updateBoardBody, all);
    const board = await boardOf(req, ns);
    const scoped = SCOPE_PARAMS.filter((key) => all[key] !== undefined);
    if (scoped.length > 0 && !isHigherTier(req.ctx)) throw new ForbiddenError();
    const settings: BoardSettings = {};
    if (params.name !== undefined) {
      if (params.name.trim() === '') throw ModelError.fields({ name: ["can't be blank"] });
      settings.name = params.name;
    }
    if (params.hide_backlog_list !== undefined) settings.hideBacklogList = params.hide_backlog_list;
    if (params.hide_closed_list !== undefined) settings.hideClosedList = params.hide_closed_list;
    if (params.weight !== undefined) settings.weight = params.weight;
    if (params.milestone_id !== undefined) {
      const usable = await models.milestones.exists({
        _id: params.milestone_id,
        groupId: { $in: groupAndAncestors(ns) },
      });
      if (!usable) throw new NotFoundError('Milestone');
      settings.milestoneId = params.milestone_id;
    }
    if (params.assignee_id !== undefined) {
      if (!(await models.users.exists({ _id: params.assignee_id }))) throw new NotFoundError('User');
      settings.assigneeId = params.assignee_id;
    }
    if (params.labels !== undefined) {
      const labels = await models.labels
        .find({ groupId: { $in: groupAndAncestors(ns) }, name: { $in: params.labels } })
        .select({ _id: 1 })
        .lean<{ _id: number }[]>();
      settings.labelIds = labels.map((l) => l._id);
    }
    const updated = await boards.update(board, settings);
    await sendBoard(req, res, 200, updated, ns);
  });

  router.delete('/groups/:id/boards/:board_id', async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    if (!isHigherTier(req.ctx)) throw new ForbiddenError();
    const board = await boardOf(req, ns);
    await boards.remove(board);
    sendNoContent(res);
  });

  const lists = '/groups/:id/boards/:board_id/lists';

  router.get(lists, async (req, res) => {
    const ns = await reader(req);
    const page = readPageRequest(req.query);
    const board = await boardOf(req, ns);
    const refs = await boards.references([board]);
    const pc = presentContext(req.ctx, ns);
    const all = board.lists.map((item, i) => presentList(item, i, refs, pc));
    setPaginationHeaders(req, res, page, all.length);
    sendJson(res, 200, all.slice(page.skip, page.skip + page.perPage));
  });

  router.get(`${lists}/:list_id`, async (req, res) => {
    const ns = await reader(req);
    const { list_id } = parseParams(listIdParams, req.params);
    const board = await boardOf(req, ns);
    const index = board.lists.findIndex((l) => l.id === list_id);
    if (index < 0) throw new NotFoundError();
    const refs = await boards.references([board]);
    sendJson(res, 200, presentList(board.lists[index]!, index, refs, presentContext(req.ctx, ns)));
  });

  /** The list's target, usable by this group's boards; GitLab's "<Type> not found" otherwise. */
  async function targetOf(
    ns: NamespaceContext,
    key: (typeof LIST_TARGETS)[number],
    id: number,
  ): Promise<{ kind: ListKind; targetId: number }> {
    const groups = { $in: groupAndAncestors(ns) };
    const notFound = ModelError.error(`${TARGET_NAMES[key]} not found`);
    if (key === 'label_id') {
      if (!(await models.labels.exists({ _id: id, groupId: groups }))) throw notFound;
      return { kind: 'label', targetId: id };
    }
    if (key === 'milestone_id') {
      if (!(await models.milestones.exists({ _id: id, groupId: groups }))) throw notFound;
      return { kind: 'milestone', targetId: id };
    }
    if (key === 'assignee_id') {
      if (!(await models.users.exists({ _id: id }))) throw notFound;
      return { kind: 'assignee', targetId: id };
    }
    throw notFound;
  }

  router.post(lists, async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    const all = collectParams(req);
    const params = parseParams(createListBody, all);
    let key: (typeof LIST_TARGETS)[number] = 'label_id';
    if (isHigherTier(req.ctx)) {
      key = requireExactlyOne(all, LIST_TARGETS) as typeof key;
    } else if (params.label_id === undefined) {
      parseParams(z.object({ label_id: integerParam }), all);
    }
    const board = await boardOf(req, ns);
    const target = await targetOf(ns, key, params[key]!);
    const id = await boards.nextListId();
    const created = await boards.mutateLists(board, (current) => {
      if (current.some((l) => l.kind === target.kind && l.targetId === target.targetId)) {
        throw ModelError.error(`${DUPLICATE_NAMES[target.kind]} has already been taken`);
      }
      const item: ListItem = { id, ...target };
      return { lists: [...current, item], result: { item, position: current.length } };
    });
    const refs = await boards.references([{ ...board, lists: [created.item] }]);
    sendJson(res, 201, presentList(created.item, created.position, refs, presentContext(req.ctx, ns)));
  });

  router.put(`${lists}/:list_id`, async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    const params = parseParams(moveListBody, collectParams(req));
    const board = await boardOf(req, ns);
    const moved = await boards.mutateLists(board, (current) => {
      const from = current.findIndex((l) => l.id === params.list_id);
      if (from < 0) throw new NotFoundError();
      const next = moveItem(current, from, params.position);
      if (!next) throw ModelError.error('List could not be moved!');
      return { lists: next, result: next[params.position]! };
    });
    const refs = await boards.references([{ ...board, lists: [moved] }]);
    sendJson(res, 200, presentList(moved, params.position, refs, presentContext(req.ctx, ns)));
  });

  router.delete(`${lists}/:list_id`, async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    const { list_id } = parseParams(listIdParams, req.params);
    const board = await boardOf(req, ns);
    if (!board.lists.some((l) => l.id === list_id)) throw new NotFoundError();
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.owner) throw new ForbiddenError();
    await boards.mutateLists(board, (current) => {
      const index = current.findIndex((l) => l.id === list_id);
      if (index < 0) throw new NotFoundError();
      return { lists: removeItem(current, index), result: undefined };
    });
    sendNoContent(res);
  });

  return router;
}
