import { VISIBLE } from '../sight';
import type { Rules } from './types';

/**
 * Board lists beyond GitLab's REST API (GraphQL's BoardListIssuesResolver and IssueMoveList): reading a
 * board is read_issue_board on the group; moving a card is update_issue on it (Reporter and up, or its
 * author or an assignee), after the board, the lists and the issue are found (404 each).
 */
const LIST_SOURCE =
  'app/graphql/resolvers/board_list_issues_resolver.rb: authorize :read_list (read_issue_board)';
const MOVE_SOURCE =
  'app/graphql/mutations/boards/issues/issue_move_list.rb: authorize :update_issue; ' +
  'Boards::Issues::MoveService (app/services/boards/issues/move_service.rb)';
// Backlog to backlog: only placement, so allowed cells change nothing (or 409 once it left the list).
const placementOnly = () => ({ from_list_id: 'backlog', to_list_id: 'backlog' });

export const BOARD_COLUMN_RULES: Rules = {
  listGroupBoardListIssues: {
    target: 'group',
    see: VISIBLE,
    params: () => ({ list_id: 'backlog' }),
    source: LIST_SOURCE,
  },
  moveGroupBoardIssue: {
    target: 'group',
    see: VISIBLE,
    role: 'reporter',
    params: (c) => ({ issue_id: c.r.issueId }),
    body: placementOnly,
    source: MOVE_SOURCE,
  },
  // The same on a project's board: read_issue_board and update_issue on the project.
  listProjectBoardListIssues: {
    target: 'project',
    see: VISIBLE,
    params: (c) => ({ board_id: c.r.projectBoardId, list_id: 'backlog' }),
    source: LIST_SOURCE,
  },
  moveProjectBoardIssue: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    params: (c) => ({ board_id: c.r.projectBoardId, issue_id: c.r.issueId }),
    body: placementOnly,
    source: MOVE_SOURCE,
  },
};
