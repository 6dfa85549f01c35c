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
import { groupWriter, readableGroup } from './boards.access';
import type { BoardDoc } from './boards.models';
import { LIST_TARGETS, type BoardsService, type ListTarget } from './boards.service';
import { presentBoard, presentList, type PresentContext } from './presenters';

const boardIdParams = z.object({ board_id: integerParam });
const listIdParams = z.object({ board_id: integerParam, list_id: integerParam });

/** Board scoping (scoped_issue_board) parameters, refused on the free tier. */
const SCOPE_PARAMS = ['assignee_id', 'milestone_id', 'labels', 'weight'] as const;

function presentContext(ctx: InternalContext, group: NamespaceContext): PresentContext {
  return { group, externalUrl: ctx.externalUrl };
}

export function createBoardsRouter(boards: BoardsService): Router {
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
    const updated = await boards.update(ns, board, params);
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

  router.post(lists, async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    const all = collectParams(req);
    const params = parseParams(createListBody, all);
    let key: ListTarget = 'label_id';
    if (isHigherTier(req.ctx)) {
      key = requireExactlyOne(all, LIST_TARGETS) as ListTarget;
    } else if (params.label_id === undefined) {
      parseParams(z.object({ label_id: integerParam }), all);
    }
    const board = await boardOf(req, ns);
    const created = await boards.addList(ns, board, key, params[key]!);
    const refs = await boards.references([{ ...board, lists: [created.item] }]);
    sendJson(res, 201, presentList(created.item, created.position, refs, presentContext(req.ctx, ns)));
  });

  router.put(`${lists}/:list_id`, async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    const params = parseParams(moveListBody, collectParams(req));
    const board = await boardOf(req, ns);
    const moved = await boards.moveList(board, params.list_id, params.position);
    const refs = await boards.references([{ ...board, lists: [moved] }]);
    sendJson(res, 200, presentList(moved, params.position, refs, presentContext(req.ctx, ns)));
  });

  router.delete(`${lists}/:list_id`, async (req, res) => {
    const ns = await writer(req, ACCESS_LEVELS.reporter);
    const { list_id } = parseParams(listIdParams, req.params);
    const board = await boardOf(req, ns);
    if (!board.lists.some((l) => l.id === list_id)) throw new NotFoundError();
    if (accessLevelOf(req.ctx) < ACCESS_LEVELS.owner) throw new ForbiddenError();
    await boards.removeList(board, list_id);
    sendNoContent(res);
  });

  return router;
}
