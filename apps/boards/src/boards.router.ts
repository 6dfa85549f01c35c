import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  ACCESS_LEVELS,
  BOARDS_API,
  boardIdParams,
  integerParam,
  listIdParams,
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
  route,
  sendJson,
  sendNoContent,
  setPaginationHeaders,
} from '@gl/service-kit';
import { groupWriter, readableGroup } from './boards.access';
import { LIST_TARGETS, type BoardDoc, type BoardsService, type ListTarget } from './boards.service';
import { presentBoard, presentList, type PresentContext } from './presenters';

function presentContext(ctx: InternalContext, group: NamespaceContext): PresentContext {
  return { group, externalUrl: ctx.externalUrl };
}

export function createBoardsRouter(boards: BoardsService): Router {
  const router = Router();

  /** A signed-in reader of the group (401, then 404); on free, the group's board exists from then on. */
  async function reader(ctx: InternalContext): Promise<NamespaceContext> {
    requireUser(ctx);
    const ns = readableGroup(ctx);
    if (!isHigherTier(ctx)) await boards.ensureDefaultBoard(ns.id);
    return ns;
  }

  async function writer(ctx: InternalContext, minimum: number): Promise<NamespaceContext> {
    const { ns } = groupWriter(ctx, minimum);
    if (!isHigherTier(ctx)) await boards.ensureDefaultBoard(ns.id);
    return ns;
  }

  async function boardOf(req: Request, ns: NamespaceContext): Promise<BoardDoc> {
    const { board_id } = parseParams(boardIdParams, req.params);
    return boards.get(ns.id, board_id);
  }

  async function sendBoard(
    ctx: InternalContext,
    res: Parameters<typeof sendJson>[0],
    status: number,
    board: BoardDoc,
    ns: NamespaceContext,
  ) {
    const refs = await boards.references([board]);
    sendJson(res, status, presentBoard(board, refs, presentContext(ctx, ns), true));
  }

  route(router, BOARDS_API.listGroupBoards, async ({ req, res, ctx }) => {
    const ns = await reader(ctx);
    const page = readPageRequest(req.query);
    const { boards: docs, total } = await boards.page(ns.id, page.skip, page.perPage);
    const refs = await boards.references(docs);
    setPaginationHeaders(req, res, page, total);
    const pc = presentContext(ctx, ns);
    sendJson(
      res,
      200,
      docs.map((b) => presentBoard(b, refs, pc, false)),
    );
  });

  route(router, BOARDS_API.getGroupBoard, async ({ req, res, ctx }) => {
    const ns = await reader(ctx);
    const board = await boardOf(req, ns);
    const refs = await boards.references([board]);
    sendJson(res, 200, presentBoard(board, refs, presentContext(ctx, ns), false));
  });

  route(router, BOARDS_API.createGroupBoard, async ({ res, ctx, params }) => {
    const ns = await writer(ctx, ACCESS_LEVELS.reporter);
    if (!isHigherTier(ctx)) throw new ForbiddenError();
    const board = await boards.create(ns.id, params().name);
    await sendBoard(ctx, res, 201, board, ns);
  });

  route(router, BOARDS_API.updateGroupBoard, async ({ req, res, ctx, params }) => {
    const ns = await writer(ctx, ACCESS_LEVELS.reporter);
    const changes = params();
    const board = await boardOf(req, ns);
    // Without scoped_issue_board (free tier) the scope parameters are dropped, not refused.
    const updated = await boards.update(ns, board, changes, isHigherTier(ctx));
    await sendBoard(ctx, res, 200, updated, ns);
  });

  route(router, BOARDS_API.deleteGroupBoard, async ({ req, res, ctx }) => {
    const ns = await writer(ctx, ACCESS_LEVELS.reporter);
    if (!isHigherTier(ctx)) throw new ForbiddenError();
    const board = await boardOf(req, ns);
    await boards.remove(board);
    sendNoContent(res);
  });

  route(router, BOARDS_API.listGroupBoardLists, async ({ req, res, ctx }) => {
    const ns = await reader(ctx);
    const page = readPageRequest(req.query);
    const board = await boardOf(req, ns);
    const refs = await boards.references([board]);
    const pc = presentContext(ctx, ns);
    const all = board.lists.map((item, i) => presentList(item, i, refs, pc));
    setPaginationHeaders(req, res, page, all.length);
    sendJson(res, 200, all.slice(page.skip, page.skip + page.perPage));
  });

  route(router, BOARDS_API.getGroupBoardList, async ({ req, res, ctx }) => {
    const ns = await reader(ctx);
    const { list_id } = parseParams(listIdParams, req.params);
    const board = await boardOf(req, ns);
    const index = board.lists.findIndex((l) => l.id === list_id);
    if (index < 0) throw new NotFoundError();
    const refs = await boards.references([board]);
    sendJson(res, 200, presentList(board.lists[index]!, index, refs, presentContext(ctx, ns)));
  });

  route(router, BOARDS_API.createGroupBoardList, async ({ req, res, ctx, params }) => {
    const ns = await writer(ctx, ACCESS_LEVELS.reporter);
    const given = collectParams(req);
    const target = params();
    let key: ListTarget = 'label_id';
    if (isHigherTier(ctx)) {
      key = requireExactlyOne(given, LIST_TARGETS) as ListTarget;
    } else if (target.label_id === undefined) {
      parseParams(z.object({ label_id: integerParam }), given);
    }
    const board = await boardOf(req, ns);
    const created = await boards.addList(ns, board, key, target[key]!);
    const refs = await boards.references([{ ...board, lists: [created.item] }]);
    sendJson(res, 201, presentList(created.item, created.position, refs, presentContext(ctx, ns)));
  });

  route(router, BOARDS_API.moveGroupBoardList, async ({ req, res, ctx, params }) => {
    const ns = await writer(ctx, ACCESS_LEVELS.reporter);
    const { list_id, position } = params();
    const board = await boardOf(req, ns);
    const moved = await boards.moveList(board, list_id, position);
    const refs = await boards.references([{ ...board, lists: [moved] }]);
    sendJson(res, 200, presentList(moved, position, refs, presentContext(ctx, ns)));
  });

  route(router, BOARDS_API.deleteGroupBoardList, async ({ req, res, ctx }) => {
    const ns = await writer(ctx, ACCESS_LEVELS.reporter);
    const { list_id } = parseParams(listIdParams, req.params);
    const board = await boardOf(req, ns);
    if (!board.lists.some((l) => l.id === list_id)) throw new NotFoundError();
    if (accessLevelOf(ctx) < ACCESS_LEVELS.owner) throw new ForbiddenError();
    await boards.removeList(board, list_id);
    sendNoContent(res);
  });

  return router;
}
