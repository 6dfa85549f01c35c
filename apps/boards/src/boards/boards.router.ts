import { Router } from 'express';
import { z } from 'zod';
import {
  ACCESS_LEVELS,
  BOARDS_API,
  integerParam,
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
  requireExactlyOne,
  requireUser,
  route,
  sendJson,
  sendNoContent,
} from '@gl/service-kit';
import { sendPage } from '../common/http';
import { groupWriter, projectBoardReader, projectBoardWriter, readableGroup } from './boards.access';
import { LIST_TARGETS, type BoardDoc, type BoardsService, type ListTarget } from './boards.service';
import { presentBoard, presentList, type PresentContext } from './boards.presenter';

type Api = typeof BOARDS_API;
/** The same operation on group boards (lib/api/group_boards.rb) and on project boards (lib/api/boards.rb). */
type Either<G extends keyof Api, P extends keyof Api> = Api[G] | Api[P];

/** What differs between group and project boards: their operations, who reads and writes, tier rules. */
interface BoardParentRules {
  ops: {
    list: Either<'listGroupBoards', 'listProjectBoards'>;
    get: Either<'getGroupBoard', 'getProjectBoard'>;
    create: Either<'createGroupBoard', 'createProjectBoard'>;
    update: Either<'updateGroupBoard', 'updateProjectBoard'>;
    remove: Either<'deleteGroupBoard', 'deleteProjectBoard'>;
    lists: Either<'listGroupBoardLists', 'listProjectBoardLists'>;
    getList: Either<'getGroupBoardList', 'getProjectBoardList'>;
    createList: Either<'createGroupBoardList', 'createProjectBoardList'>;
    moveList: Either<'moveGroupBoardList', 'moveProjectBoardList'>;
    deleteList: Either<'deleteGroupBoardList', 'deleteProjectBoardList'>;
  };
  /** A signed-in reader of the parent's boards (401, then 404, then 403). */
  reader: (ctx: InternalContext) => Promise<NamespaceContext> | NamespaceContext;
  /** A writer of the parent's boards and lists (401, then 404, then 403). */
  writer: (ctx: InternalContext) => Promise<NamespaceContext> | NamespaceContext;
  /** `board_parent.multiple_issue_boards_available?`: creating and deleting boards. */
  multipleBoards: (ctx: InternalContext) => boolean;
  /** Whether the writer may delete a list, asked once the list is found. */
  mayDeleteList: (ctx: InternalContext) => boolean;
}

function presentContext(ctx: InternalContext, parent: NamespaceContext): PresentContext {
  return { parent, externalUrl: ctx.externalUrl };
}

/** lib/api/boards_responses.rb for one kind of board parent. */
function routeBoards(router: Router, boards: BoardsService, rules: BoardParentRules): void {
  const { ops, reader, writer } = rules;

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

  route(router, ops.list, async ({ req, res, ctx }) => {
    const ns = await reader(ctx);
    await sendPage(
      req,
      res,
      (page) => boards.page(ns, page.skip, page.perPage),
      async (docs) => {
        const refs = await boards.references(docs);
        const pc = presentContext(ctx, ns);
        return docs.map((b) => presentBoard(b, refs, pc, false));
      },
    );
  });

  route(router, ops.get, async ({ res, ctx, params }) => {
    const ns = await reader(ctx);
    const board = await boards.get(ns, params().board_id);
    const refs = await boards.references([board]);
    sendJson(res, 200, presentBoard(board, refs, presentContext(ctx, ns), false));
  });

  route(router, ops.create, async ({ res, ctx, params }) => {
    const ns = await writer(ctx);
    if (!rules.multipleBoards(ctx)) throw new ForbiddenError();
    const board = await boards.create(ns, params().name);
    await sendBoard(ctx, res, 201, board, ns);
  });

  route(router, ops.update, async ({ res, ctx, params }) => {
    const ns = await writer(ctx);
    const changes = params();
    const board = await boards.get(ns, changes.board_id);
    // Without scoped_issue_board (free tier) the scope parameters are dropped, not refused.
    const updated = await boards.update(ns, board, changes, isHigherTier(ctx));
    await sendBoard(ctx, res, 200, updated, ns);
  });

  route(router, ops.remove, async ({ res, ctx, params }) => {
    const ns = await writer(ctx);
    if (!rules.multipleBoards(ctx)) throw new ForbiddenError();
    const board = await boards.get(ns, params().board_id);
    await boards.remove(board);
    sendNoContent(res);
  });

  route(router, ops.lists, async ({ req, res, ctx, pathParams }) => {
    const ns = await reader(ctx);
    // A board's lists are embedded: all are read and presented (positions count them all), one page sent.
    // The page is read first, then the board from the path alone.
    await sendPage(
      req,
      res,
      async (page) => {
        const board = await boards.get(ns, pathParams().board_id);
        const refs = await boards.references([board]);
        const pc = presentContext(ctx, ns);
        const all = board.lists.map((item, i) => presentList(item, i, refs, pc));
        return { total: all.length, docs: all.slice(page.skip, page.skip + page.perPage) };
      },
      (shown) => shown,
    );
  });

  route(router, ops.getList, async ({ res, ctx, params }) => {
    const ns = await reader(ctx);
    const { board_id, list_id } = params();
    const board = await boards.get(ns, board_id);
    const index = board.lists.findIndex((l) => l.id === list_id);
    if (index < 0) throw new NotFoundError();
    const refs = await boards.references([board]);
    sendJson(res, 200, presentList(board.lists[index]!, index, refs, presentContext(ctx, ns)));
  });

  route(router, ops.createList, async ({ req, res, ctx, params }) => {
    const ns = await writer(ctx);
    const given = collectParams(req);
    const target = params();
    let key: ListTarget = 'label_id';
    if (isHigherTier(ctx)) {
      key = requireExactlyOne(given, LIST_TARGETS) as ListTarget;
    } else if (target.label_id === undefined) {
      parseParams(z.object({ label_id: integerParam }), given);
    }
    const board = await boards.get(ns, target.board_id);
    const created = await boards.addList(ns, board, key, target[key]!);
    const refs = await boards.references([{ ...board, lists: [created.item] }]);
    sendJson(res, 201, presentList(created.item, created.position, refs, presentContext(ctx, ns)));
  });

  route(router, ops.moveList, async ({ res, ctx, params }) => {
    const ns = await writer(ctx);
    const { board_id, list_id, position } = params();
    const board = await boards.get(ns, board_id);
    const moved = await boards.moveList(board, list_id, position);
    const refs = await boards.references([{ ...board, lists: [moved] }]);
    sendJson(res, 200, presentList(moved, position, refs, presentContext(ctx, ns)));
  });

  route(router, ops.deleteList, async ({ res, ctx, params }) => {
    const ns = await writer(ctx);
    const { board_id, list_id } = params();
    const board = await boards.get(ns, board_id);
    if (!board.lists.some((l) => l.id === list_id)) throw new NotFoundError();
    if (!rules.mayDeleteList(ctx)) throw new ForbiddenError();
    await boards.removeList(board, list_id);
    sendNoContent(res);
  });
}

/** Group boards (lib/api/group_boards.rb): one board per group on free, made on first read. */
function groupRules(boards: BoardsService): BoardParentRules {
  return {
    ops: {
      list: BOARDS_API.listGroupBoards,
      get: BOARDS_API.getGroupBoard,
      create: BOARDS_API.createGroupBoard,
      update: BOARDS_API.updateGroupBoard,
      remove: BOARDS_API.deleteGroupBoard,
      lists: BOARDS_API.listGroupBoardLists,
      getList: BOARDS_API.getGroupBoardList,
      createList: BOARDS_API.createGroupBoardList,
      moveList: BOARDS_API.moveGroupBoardList,
      deleteList: BOARDS_API.deleteGroupBoardList,
    },
    /** A signed-in reader of the group (401, then 404); on free, the group's board exists from then on. */
    reader: async (ctx) => {
      requireUser(ctx);
      const ns = readableGroup(ctx);
      if (!isHigherTier(ctx)) await boards.ensureDefaultBoard(ns.id);
      return ns;
    },
    writer: async (ctx) => {
      const { ns } = groupWriter(ctx, ACCESS_LEVELS.reporter);
      if (!isHigherTier(ctx)) await boards.ensureDefaultBoard(ns.id);
      return ns;
    },
    // Group#multiple_issue_boards_available?: the multiple_group_issue_boards license.
    multipleBoards: isHigherTier,
    mayDeleteList: (ctx) => accessLevelOf(ctx) >= ACCESS_LEVELS.owner,
  };
}

/**
 * Project boards (lib/api/boards.rb): Project#multiple_issue_boards_available? is true on every tier, so
 * a project has the boards it creates (none until then) and Reporters manage their lists.
 */
const PROJECT_RULES: BoardParentRules = {
  ops: {
    list: BOARDS_API.listProjectBoards,
    get: BOARDS_API.getProjectBoard,
    create: BOARDS_API.createProjectBoard,
    update: BOARDS_API.updateProjectBoard,
    remove: BOARDS_API.deleteProjectBoard,
    lists: BOARDS_API.listProjectBoardLists,
    getList: BOARDS_API.getProjectBoardList,
    createList: BOARDS_API.createProjectBoardList,
    moveList: BOARDS_API.moveProjectBoardList,
    deleteList: BOARDS_API.deleteProjectBoardList,
  },
  reader: projectBoardReader,
  writer: projectBoardWriter,
  multipleBoards: () => true,
  mayDeleteList: () => true,
};

export function createBoardsRouter(boards: BoardsService): Router {
  const router = Router();
  routeBoards(router, boards, groupRules(boards));
  routeBoards(router, boards, PROJECT_RULES);
  return router;
}
