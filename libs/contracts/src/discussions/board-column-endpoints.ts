import { z } from 'zod';
import { defineEndpoints } from '../endpoint';
import { paginationQuery } from '../pagination';
import { integerParam, recordIdParam } from '../primitives';
import { issueEntity } from './entities';

/**
 * A board list: a movable list's id, or `backlog` (Open: open issues in none of the board's lists) or
 * `closed` (Closed), the two lists GitLab's REST list endpoints do not show.
 */
export const boardListRef = z.union([z.enum(['backlog', 'closed']), integerParam]);
export type BoardListRef = z.infer<typeof boardListRef>;

export const boardColumnQuery = z.object({
  board_id: recordIdParam,
  list_id: boardListRef,
  ...paginationQuery.shape,
  /**
   * `keyset`: pages by cursor (GitLab's `pagination=keyset`), as GitLab's boards page their columns; the
   * answer's `Link` rel="next" and `X-Next-Cursor` carry the next page's cursor, and no totals.
   */
  pagination: z.enum(['offset', 'keyset']).optional(),
  /** With `pagination=keyset`: where the page starts, from the previous page's `X-Next-Cursor`. */
  cursor: z.string().max(1_000).optional(),
});

/** Boards::Issues::MoveService's parameters (GraphQL issueMoveList / the board's drag and drop). */
export const moveBoardIssueBody = z.object({
  board_id: integerParam,
  issue_id: integerParam,
  from_list_id: boardListRef,
  to_list_id: boardListRef,
  /** The issue the moved one is placed after (as PUT /projects/:id/issues/:iid/reorder). */
  move_after_id: integerParam.optional(),
  /** The issue the moved one is placed before. */
  move_before_id: integerParam.optional(),
});

/** The issues of one board list, under a group's or a project's board. */
function listIssues<const P extends string, const O extends string>(path: P, operationId: O) {
  return {
    method: 'GET',
    path,
    operationId,
    summary:
      'Issues of one board list (a list id, backlog or closed): the board scope and the list, by relative position',
    tags: ['boards'],
    auth: 'token',
    params: boardColumnQuery,
    response: { status: 200, description: 'Issues', schema: z.array(issueEntity), paginated: true },
    errors: [400, 401, 404],
  } as const;
}

/** A card moved between two lists of a group's or a project's board. */
function moveIssue<const P extends string, const O extends string>(path: P, operationId: O) {
  return {
    method: 'PUT',
    path,
    operationId,
    summary:
      'Move a card from one board list to another (labels, milestone, assignee, state) and place it between two issues',
    tags: ['boards'],
    auth: 'token',
    params: moveBoardIssueBody,
    response: { status: 200, description: 'Issue', schema: issueEntity },
    errors: [400, 401, 403, 404, 409, 422],
  } as const;
}

/**
 * Beyond GitLab's REST API (GitLab serves these through GraphQL: BoardListIssuesResolver and
 * Mutations::Boards::Issues::IssueMoveList): the issues of one board list as the board shows them, and
 * moving a card between lists in one step, on group and project boards. Served by discussions from its
 * copy of board definitions.
 */
export const BOARD_COLUMN_ENDPOINTS = defineEndpoints('discussions', [
  listIssues('/groups/{id}/boards/{board_id}/lists/{list_id}/issues', 'listGroupBoardListIssues'),
  moveIssue('/groups/{id}/boards/{board_id}/issues/{issue_id}/move', 'moveGroupBoardIssue'),
  listIssues('/projects/{id}/boards/{board_id}/lists/{list_id}/issues', 'listProjectBoardListIssues'),
  moveIssue('/projects/{id}/boards/{board_id}/issues/{issue_id}/move', 'moveProjectBoardIssue'),
]);
