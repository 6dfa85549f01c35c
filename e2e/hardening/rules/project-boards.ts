import { unique } from '../../e2e.helpers';
import { VISIBLE } from '../sight';
import type { CellContext, Rules } from './types';

/**
 * Project issue boards. lib/api/boards.rb runs `before { authenticate! }` (anonymous reads too are 401),
 * finds the project with user_project (404), reads with read_issue_board (whoever reads the project) and
 * writes with admin_issue_board / admin_issue_board_list (app/policies/project_policy.rb: Reporter).
 * Project#multiple_issue_boards_available? is true on every tier, so creation and deletion have no tier rule.
 */
const source = 'lib/api/boards.rb (`before { authenticate! }`), lib/api/boards_responses.rb';
const board = (c: CellContext) => ({ board_id: c.r.projectBoardId });
const list = (c: CellContext) => ({ board_id: c.r.projectBoardId, list_id: c.r.projectListId });

export const PROJECT_BOARD_RULES: Rules = {
  listProjectBoards: {
    target: 'project',
    see: VISIBLE,
    source: `${source}: authorize!(:read_issue_board, user_project)`,
  },
  getProjectBoard: {
    target: 'project',
    see: VISIBLE,
    params: board,
    source: `${source}: authorize!(:read_issue_board, user_project); board_parent.boards.find`,
  },
  createProjectBoard: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    body: () => ({ name: unique('pboard-') }),
    source: `${source} \`post\`: authorize!(:admin_issue_board, board_parent); create_board`,
  },
  updateProjectBoard: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    params: board,
    body: () => ({ hide_closed_list: false }),
    source: `${source} \`put\`: authorize!(:admin_issue_board, board_parent); update_board`,
  },
  deleteProjectBoard: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'projectBoard',
    source: `${source} \`delete\`: authorize!(:admin_issue_board, board_parent); delete_board`,
  },
  listProjectBoardLists: {
    target: 'project',
    see: VISIBLE,
    params: board,
    source: `${source}: authorize!(:read_issue_board, user_project); board_lists`,
  },
  getProjectBoardList: {
    target: 'project',
    see: VISIBLE,
    params: list,
    source: `${source}: authorize!(:read_issue_board, user_project); board_lists.find`,
  },
  createProjectBoardList: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    params: board,
    body: (c) => ({ label_id: c.r.labelId }),
    source: `${source}: authorize!(:admin_issue_board_list, user_project); create_list`,
  },
  moveProjectBoardList: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    params: list,
    body: () => ({ position: 0 }),
    source: `${source}: board_lists.find, authorize!(:admin_issue_board_list, user_project); move_list`,
  },
  deleteProjectBoardList: {
    target: 'project',
    see: VISIBLE,
    role: 'reporter',
    fresh: 'projectList',
    source: `${source}: authorize!(:admin_issue_board_list, user_project); destroy_list`,
  },
};
