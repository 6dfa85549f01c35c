import { Router, type Request } from 'express';
import { ACCESS_LEVELS, DISCUSSIONS_API, type EndpointContract } from '@gl/contracts';
import {
  ForbiddenError,
  HttpError,
  NotFoundError,
  ParamError,
  collectParams,
  projectionCaughtUp,
  readPageRequest,
  requestOrigin,
  requireUser,
  route,
  sendJson,
  setKeysetPaginationHeaders,
  setUncountedPaginationHeaders,
  type ProjectionRevisions,
  type RouteCall,
} from '@gl/service-kit';
import { accessTargetOf, canReadNote, readableNamespace, userSummaryOf } from '../common/access';
import { SERVICE_PRODUCER } from '../common/origin';
import { presentIssue } from '../issues/issues.presenter';
import { readPage, sendPage } from '../common/http';
import { issuableFilter, namesOf, readableFilter } from '../lists/issuables.finder';
import {
  positionScopeOfNamespace,
  viewerOfContext,
  type IssuablesScope,
  type ScopeProject,
} from '../lists/issuables.scope';
import type { NoteableDoc, NoteablesService } from '../noteables/noteables.service';
import type { BoardCopies, BoardCopyDoc } from './board-projection';
import { columnOf, columnQuery, inColumn, moveChanges, type Column } from './board-columns';
import type { BoardColumnsService, ColumnPage } from './board-columns.service';
import { positionScopeOfGroup } from '../lists/root-scope';
import { decodeColumnCursor, encodeColumnCursor } from './column-cursor';

export interface BoardColumnsDeps {
  boards: BoardCopies;
  noteables: NoteablesService;
  columns: BoardColumnsService;
  scope: IssuablesScope;
  revisions: Pick<ProjectionRevisions, 'caughtUp'>;
  /** One writer at a time per key (the positions' leases): a card's moves run one after another. */
  withLease<T>(key: string, work: () => Promise<T>): Promise<T>;
}

type ParentKind = 'group' | 'project';
/** What the group and the project route of one call are both called with (their params are one schema). */
type CallOf<E extends EndpointContract> = Pick<RouteCall<E>, 'req' | 'res' | 'params'>;
type ColumnCall = CallOf<typeof DISCUSSIONS_API.listGroupBoardListIssues>;
type MoveCall = CallOf<typeof DISCUSSIONS_API.moveGroupBoardIssue>;

/** Refused moves (Boards::Issues::MoveService returning false): 422 as the reorder endpoint answers. */
const unprocessable = (message: string) => new HttpError(422, { message });

/**
 * The issues of a board list and moving a card between lists (GitLab serves both through GraphQL only):
 * the board comes from discussions' copy of board definitions, the issues from the issue finder.
 */
export function createBoardColumnsRouter(deps: BoardColumnsDeps): Router {
  const { boards, noteables, columns, scope, revisions } = deps;
  const router = Router();

  /**
   * The board of the group or project the path names, its lists, the readable projects its issues come
   * from, and where those issues are placed (Issue.relative_positioning_query_base: the root group's).
   */
  async function boardOf(
    req: Request,
    res: Parameters<typeof sendJson>[0],
    boardId: number,
    kind: ParentKind,
  ) {
    requireUser(req.ctx);
    const ns = readableNamespace(req.ctx, kind);
    const board = await boards.find({ kind, id: ns.id }, boardId);
    if (!board) throw new NotFoundError('Board');
    await projectionCaughtUp(revisions, req, res);
    const projects = kind === 'group' ? await scope.ofGroup(req.ctx, ns) : scope.ofProject(req.ctx, ns);
    const positionScope = kind === 'group' ? positionScopeOfGroup(ns) : positionScopeOfNamespace(ns);
    return { board, projects, positionScope };
  }

  function listOf(board: BoardCopyDoc, ref: Parameters<typeof columnOf>[1]): Column {
    const column = columnOf(board, ref);
    if (!column) throw new NotFoundError('List');
    return column;
  }

  async function present(req: Request, docs: NoteableDoc[], projects: ScopeProject[]) {
    const byId = new Map(projects.map((p) => [p.id, p]));
    const extras = await noteables.pageExtras(docs, (doc) =>
      canReadNote(
        {
          ...req.ctx,
          namespace: req.ctx.namespace && {
            ...req.ctx.namespace,
            accessLevel: byId.get(doc.projectId!)?.level ?? 0,
          },
        },
        accessTargetOf(doc),
        { internal: true },
      ),
    );
    return docs.map((doc) => {
      const project = byId.get(doc.projectId!);
      const view = project
        ? { fullPath: project.fullPath, webUrl: `${req.ctx.externalUrl}/${project.fullPath}` }
        : { fullPath: '', webUrl: req.ctx.externalUrl };
      return presentIssue(doc, view, extras.get(doc._id)!);
    });
  }

  const listIssues =
    (kind: ParentKind) =>
    async ({ req, res, params }: ColumnCall) => {
      const given = params();
      const { board, projects, positionScope } = await boardOf(req, res, given.board_id, kind);
      const column = listOf(board, given.list_id);
      const { query, extra } = columnQuery(board, column);
      const viewer = viewerOfContext(req.ctx);
      const lookups = await scope.lookups(namesOf(query), projects);
      const finder = issuableFilter({ kind: 'Issue', query, projects, viewer, lookups }, { withState: true });
      // One flat $and, as the finder builds it: the local database answers it by SQL only when flat.
      const filter = { $and: [...(finder.$and as object[]), ...extra] };
      if (given.pagination === 'keyset') {
        const { perPage } = readPageRequest(req.query);
        const after = given.cursor === undefined ? null : decodeColumnCursor(given.cursor);
        const page = await columns.pageAfter(filter, positionScope, after, perPage);
        const last = page.items[page.items.length - 1];
        const next =
          page.hasNext && last
            ? encodeColumnCursor({ relativePosition: last.relativePosition ?? null, id: last._id })
            : null;
        const body = await present(req, page.items, projects);
        setKeysetPaginationHeaders(req, res, next);
        sendJson(res, 200, body);
        return;
      }
      let found: ColumnPage = { items: [], total: 0, hasNext: false };
      const list = await readPage(req, async (skip, limit) => {
        found = await columns.page(filter, positionScope, skip, limit);
        return { items: found.items, total: found.total ?? 0 };
      });
      if (found.total !== null) {
        await sendPage(req, res, list, (items) => present(req, items, projects));
        return;
      }
      // More than 10,000 issues: no X-Total, as GitLab past Kaminari's MAX_COUNT_LIMIT.
      const body = await present(req, list.items, projects);
      setUncountedPaginationHeaders(req, res, list.page, found.hasNext);
      sendJson(res, 200, body);
    };
  route(router, DISCUSSIONS_API.listGroupBoardListIssues, listIssues('group'));
  route(router, DISCUSSIONS_API.listProjectBoardListIssues, listIssues('project'));

  /** The issue if the caller reads it in this group (the finder's read rule), else 404. */
  async function readableIssue(id: number, projects: ScopeProject[], req: Request): Promise<NoteableDoc> {
    const issue = await noteables.findIssueById(id);
    const readable =
      issue !== null &&
      issue.kind === 'Issue' &&
      (await columns.selects(issue._id, readableFilter('Issue', projects, viewerOfContext(req.ctx))));
    if (!readable) throw new NotFoundError('Issue');
    return issue;
  }

  /** A neighbour given for the placement: an issue of the same positioning scope, else 422. */
  async function neighbour(id: number | undefined, positionScope: string, self: NoteableDoc) {
    if (id === undefined || id <= 0 || id === self._id) return null;
    const doc = await noteables.findIssueById(id);
    if (!doc || doc.kind !== 'Issue') throw unprocessable('Neighbour issue not found');
    const theirs = doc.positionScope ?? (await scope.positionScopeOf(doc.projectId!));
    if (theirs !== positionScope) throw unprocessable('Neighbour issue not found');
    return doc._id;
  }

  const moveIssue =
    (kind: ParentKind) =>
    async ({ req, res, params }: MoveCall) => {
      const user = requireUser(req.ctx);
      // Grape's `requires`: an absent list is "missing" (the union schema alone would call it invalid).
      const raw = collectParams(req);
      const absent = ['from_list_id', 'to_list_id'].filter(
        (key) => raw[key] === undefined || raw[key] === '',
      );
      if (absent.length > 0) throw new ParamError(absent.map((key) => `${key} is missing`));
      const given = params();
      const { board, projects } = await boardOf(req, res, given.board_id, kind);
      const from = listOf(board, given.from_list_id);
      const to = listOf(board, given.to_list_id);
      const issue = await readableIssue(given.issue_id, projects, req);
      // MoveService: can?(current_user, :update_issue, issue): the author, an assignee, or Reporter and up.
      const level = projects.find((p) => p.id === issue.projectId)?.level ?? 0;
      const own = issue.author.id === user.id || issue.assigneeIds.includes(user.id);
      if (!own && !req.ctx.principal?.isAdmin && level < ACCESS_LEVELS.reporter) throw new ForbiddenError();
      if (to.kind === 'list' && to.list.kind === 'iteration') {
        throw unprocessable('Issues here have no iteration: they cannot be moved to an iteration list');
      }
      const positionScope = issue.positionScope ?? (await scope.positionScopeOf(issue.projectId!));
      const afterId = await neighbour(given.move_after_id, positionScope ?? '', issue);
      const beforeId = await neighbour(given.move_before_id, positionScope ?? '', issue);

      // One card, one mover at a time: the list the card is in is checked and left in the same step, so two
      // clients moving it at once never put it in two lists (or none); the second finds it moved and gets 409.
      const moved = await deps.withLease(`issue:${issue._id}`, async () => {
        const current = (await noteables.findIssueById(issue._id))!;
        if (!inColumn(board, from, current)) {
          throw new HttpError(409, { message: 'Issue is not in the list it is moved from' });
        }
        const sameList = given.from_list_id === given.to_list_id;
        const changes = sameList ? {} : moveChanges(board, from, to, current);
        let updated = current;
        if (Object.keys(changes).length > 0) {
          updated = await noteables.updateIssue(
            requestOrigin(SERVICE_PRODUCER, req.ctx),
            current,
            userSummaryOf(user),
            changes,
          );
        }
        if ((afterId !== null || beforeId !== null) && positionScope) {
          if (!(await noteables.moveIssueBetween(positionScope, issue._id, afterId, beforeId))) {
            throw unprocessable('Issue could not be placed');
          }
          updated = (await noteables.findIssueById(issue._id))!;
        }
        return updated;
      });
      const [body] = await present(req, [moved], projects);
      sendJson(res, 200, body);
    };
  route(router, DISCUSSIONS_API.moveGroupBoardIssue, moveIssue('group'));
  route(router, DISCUSSIONS_API.moveProjectBoardIssue, moveIssue('project'));

  return router;
}
